{{/* Names, labels and the settings every object of the chart shares. */}}

{{- define "slipway.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's prefix of every object name; kept short enough for the longest suffix (-orchestrator). */}}
{{- define "slipway.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" }}
{{- else if contains (include "slipway.name" .) .Release.Name }}
{{- .Release.Name | trunc 50 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "slipway.name" .) | trunc 50 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/* Cluster-wide objects (ClusterRoles and their bindings) carry the namespace too: two releases of one name in two namespaces do not collide. */}}
{{- define "slipway.clusterName" -}}
{{- printf "%s-%s" .Release.Namespace (include "slipway.fullname" .) }}
{{- end }}

{{- define "slipway.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "slipway.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: slipway
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Labels of one component's objects: ctx = dict "root" $ "component" "orchestrator" */}}
{{- define "slipway.componentLabels" -}}
{{ include "slipway.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "slipway.selectorLabels" -}}
app.kubernetes.io/name: {{ include "slipway.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "slipway.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The name of a component's service account: the one made, or the one named. ctx as componentLabels. */}}
{{- define "slipway.serviceAccountName" -}}
{{- $sa := (index .root.Values .component).serviceAccount }}
{{- if $sa.create }}
{{- default (printf "%s-%s" (include "slipway.fullname" .root) .component) $sa.name }}
{{- else }}
{{- default "default" $sa.name }}
{{- end }}
{{- end }}

{{/* http or https: what the services serve, what their probes and their peers in the release use. */}}
{{- define "slipway.scheme" -}}
{{- if .Values.tls.enabled }}https{{ else }}http{{ end }}
{{- end }}

{{/* The base URL of a component's API inside the cluster. ctx as componentLabels. */}}
{{- define "slipway.apiUrl" -}}
{{- $values := index .root.Values .component }}
{{- printf "%s://%s-%s.%s.svc:%v/api/v1.0" (include "slipway.scheme" .root) (include "slipway.fullname" .root) .component .root.Release.Namespace (int $values.service.port) }}
{{- end }}

{{/*
A settings map as ConfigMap or Secret data: each value a string, numbers written whole (values read from YAML are
floating point: 16777216 would otherwise be written 1.6777216e+07), empty strings left out (a setting left empty is
the service's default, as an unset variable).
*/}}
{{- define "slipway.settingsData" -}}
{{- range $key, $value := . }}
{{- if kindIs "float64" $value }}
{{ $key }}: {{ printf "%d" (int64 $value) | quote }}
{{- else if kindIs "int64" $value }}
{{ $key }}: {{ printf "%d" $value | quote }}
{{- else if and (kindIs "string" $value) (eq $value "") }}
{{- else if not (kindIs "invalid" $value) }}
{{ $key }}: {{ toString $value | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* The name of the Secret a component's secret settings come from: the one made, or an existing one. */}}
{{- define "slipway.secretName" -}}
{{- $values := index .root.Values .component }}
{{- default (printf "%s-%s" (include "slipway.fullname" .root) .component) $values.existingSecret }}
{{- end }}

{{/* Whether the orchestrator has a PostgreSQL database (by URL, or a Secret holding the URL). */}}
{{- define "slipway.postgres" -}}
{{- $pg := .Values.orchestrator.postgresql }}
{{- if or $pg.url $pg.existingSecret }}true{{ end }}
{{- end }}

{{/* Refusals no schema can state: they depend on more than one value. */}}
{{- define "slipway.checks" -}}
{{- $o := .Values.orchestrator }}
{{- if and (gt (int $o.replicas) 1) (not (include "slipway.postgres" .)) }}
{{- fail (printf "orchestrator.replicas is %d, but no PostgreSQL is set: the embedded SQLite database serves one replica only. Set orchestrator.postgresql.url (postgres://user:password@host:5432/database) or orchestrator.postgresql.existingSecret, or keep orchestrator.replicas at 1" (int $o.replicas)) }}
{{- end }}
{{- if and .Values.tls.enabled (not .Values.tls.secretName) }}
{{- fail "tls.enabled is true but tls.secretName is empty: name the kubernetes.io/tls Secret holding tls.crt and tls.key" }}
{{- end }}
{{- if and .Values.auth.tokens .Values.auth.existingTokensSecret }}
{{- fail "auth.tokens and auth.existingTokensSecret are both set: give the token file one way" }}
{{- end }}
{{- end }}

{{/* Maps laid one over the other, later keys winning, an empty string too (sprig's merge keeps the earlier value). */}}
{{- define "slipway.overlay" -}}
{{- $out := dict }}
{{- range $layer := . }}
{{- range $key, $value := $layer }}
{{- $_ := set $out $key $value }}
{{- end }}
{{- end }}
{{- toYaml $out }}
{{- end }}

{{/* Where the chart mounts what it gives the services. */}}
{{- define "slipway.paths" -}}
tokens: /etc/slipway/auth/tokens.yaml
policy: /etc/slipway/policy/policy.yaml
tlsDir: /etc/slipway/tls
caDir: /etc/slipway/tls-ca
data: /data
{{- end }}

{{/*
A component's settings as its ConfigMap holds them: what the chart derives, then the shared `config`, then the
component's own `config`, then what the chart decides itself (the port, the mounted files' paths). ctx as
componentLabels.
*/}}
{{- define "slipway.componentSettings" -}}
{{- $root := .root }}
{{- $values := index $root.Values .component }}
{{- $paths := include "slipway.paths" . | fromYaml }}
{{- $derived := dict "HOST" "0.0.0.0" }}
{{- if eq .component "orchestrator" }}
{{- $_ := set $derived "VALIDATORS" (printf "Promenade=%s/validatedesign" (include "slipway.apiUrl" (dict "root" $root "component" "bootstrap"))) }}
{{- end }}
{{- $owned := dict "PORT" (int $values.containerPort) }}
{{- if eq .component "orchestrator" }}
{{- $_ := set $owned "ORCHESTRATOR_DATA_DIR" $paths.data }}
{{- end }}
{{- if or $root.Values.auth.tokens $root.Values.auth.existingTokensSecret }}
{{- $_ := set $owned "AUTH_TOKENS_FILE" $paths.tokens }}
{{- end }}
{{- if $root.Values.auth.policy }}
{{- $_ := set $owned "POLICY_FILE" $paths.policy }}
{{- end }}
{{- if $root.Values.tls.enabled }}
{{- $_ := set $owned "TLS_CERT_FILE" (printf "%s/tls.crt" $paths.tlsDir) }}
{{- $_ := set $owned "TLS_KEY_FILE" (printf "%s/tls.key" $paths.tlsDir) }}
{{- end }}
{{- if $root.Values.tls.caSecretName }}
{{- $_ := set $owned "TLS_CA_FILE" (printf "%s/ca.crt" $paths.caDir) }}
{{- end }}
{{- include "slipway.overlay" (list $derived $root.Values.config $values.config $owned) }}
{{- end }}

{{/*
The step library's settings for the engine's task processes: the release's bootstrap service and orchestrator as
PROMENADE_URL and SHIPYARD_URL unless steps.config names them ('' there: none, or the Keystone catalog's), the
deployment status ConfigMap in the release's namespace unless named, then steps.config.
*/}}
{{- define "slipway.stepsSettings" -}}
{{- $root := . }}
{{- $derived := dict
  "PROMENADE_URL" (include "slipway.apiUrl" (dict "root" $root "component" "bootstrap"))
  "SHIPYARD_URL" (include "slipway.apiUrl" (dict "root" $root "component" "orchestrator"))
  "DEPLOYMENT_STATUS_CONFIGMAP" "deployment-status"
  "DEPLOYMENT_STATUS_NAMESPACE" $root.Release.Namespace }}
{{- $settings := include "slipway.overlay" (list $derived $root.Values.steps.config) | fromYaml }}
{{- $_ := set $settings "DEPLOYMENT_STATUS_NAMESPACE" (default $root.Release.Namespace $settings.DEPLOYMENT_STATUS_NAMESPACE) }}
{{- $_ := set $settings "DEPLOYMENT_STATUS_CONFIGMAP" (default "deployment-status" $settings.DEPLOYMENT_STATUS_CONFIGMAP) }}
{{- toYaml $settings }}
{{- end }}

{{/* `<field>:` and a settings map under it as string data ({} when empty). ctx = dict "field" "data" "settings" $map */}}
{{- define "slipway.dataField" -}}
{{- $lines := include "slipway.settingsData" .settings | trim }}
{{- if $lines }}
{{- .field }}:
  {{- $lines | nindent 2 }}
{{- else }}
{{- .field }}: {}
{{- end }}
{{- end }}
