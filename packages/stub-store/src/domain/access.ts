// Who may do what: the caller's access as the routes hand it in, and Deckhand's policy rule names.

/** What the caller may do; rules are Deckhand's policy names. */
export interface Access {
  can: (rule: string) => boolean
}

export const RULES = {
  createCleartext: 'deckhand:create_cleartext_documents',
  createEncrypted: 'deckhand:create_encrypted_documents',
  listCleartext: 'deckhand:list_cleartext_documents',
  listEncrypted: 'deckhand:list_encrypted_documents',
  showCleartext: 'deckhand:show_cleartext_documents',
  listRevisions: 'deckhand:list_revisions',
  showRevision: 'deckhand:show_revision',
  deleteRevisions: 'deckhand:delete_revisions',
  showDiff: 'deckhand:show_revision_diff',
  showDeepDiff: 'deckhand:show_revision_deepdiff',
  createTag: 'deckhand:create_tag',
  showTag: 'deckhand:show_tag',
  listTags: 'deckhand:list_tags',
  deleteTag: 'deckhand:delete_tag',
  deleteTags: 'deckhand:delete_tags',
  createValidation: 'deckhand:create_validation',
  listValidations: 'deckhand:list_validations',
  showValidation: 'deckhand:show_validation'
} as const
