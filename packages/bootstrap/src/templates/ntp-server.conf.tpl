server {{ address }} iburst
