{{/*
One service's Deployment: the orchestrator and the bootstrap service differ only in their command, their port and
what they keep (the orchestrator's SQLite folder). ctx = dict "root" $ "component" "orchestrator".
*/}}
{{- define "slipway.deployment" -}}
{{- $root := .root }}
{{- $component := .component }}
{{- $values := index $root.Values $component }}
{{- $paths := include "slipway.paths" . | fromYaml }}
{{- $scheme := include "slipway.scheme" $root | upper }}
{{- $sqlite := and (eq $component "orchestrator") (not (include "slipway.postgres" $root)) }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "slipway.fullname" $root }}-{{ $component }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "slipway.componentLabels" . | nindent 4 }}
spec:
  replicas: {{ $values.replicas }}
  revisionHistoryLimit: 3
  selector:
    matchLabels:
      {{- include "slipway.selectorLabels" . | nindent 6 }}
  strategy:
    {{- if $sqlite }}
    # one SQLite file: the old pod stops before the new one opens it
    type: Recreate
    {{- else }}
    type: RollingUpdate
    rollingUpdate: { maxUnavailable: 0, maxSurge: 1 }
    {{- end }}
  template:
    metadata:
      labels:
        {{- include "slipway.componentLabels" . | nindent 8 }}
      annotations:
        # a changed setting or secret rolls the pods: the services read their settings once, at start
        checksum/settings: {{ include "slipway.componentSettings" . | sha256sum }}
        checksum/secrets: {{ list $root.Values.secrets $values.secrets $root.Values.auth $root.Values.orchestrator.postgresql.url | toJson | sha256sum }}
        {{- with $values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "slipway.serviceAccountName" . }}
      # only the bootstrap service calls the Kubernetes API (node labels, the join scripts' node list)
      automountServiceAccountToken: {{ eq $component "bootstrap" }}
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- toYaml $root.Values.podSecurityContext | nindent 8 }}
      terminationGracePeriodSeconds: {{ $values.terminationGracePeriodSeconds }}
      containers:
        - name: {{ $component }}
          image: {{ include "slipway.image" $root }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          command: ["node", "--optimize-for-size", "packages/{{ $component }}/src/server.ts"]
          ports:
            - name: api
              containerPort: {{ $values.containerPort }}
              protocol: TCP
          envFrom:
            - configMapRef:
                name: {{ include "slipway.fullname" $root }}-{{ $component }}
            - secretRef:
                name: {{ include "slipway.secretName" . }}
          {{- if eq $component "orchestrator" }}
          {{- with $root.Values.orchestrator.postgresql }}
          {{- if or .url .existingSecret }}
          env:
            - name: DATABASE_URL
              valueFrom:
                secretKeyRef:
                  name: {{ default (printf "%s-postgresql" (include "slipway.fullname" $root)) .existingSecret }}
                  key: {{ ternary "DATABASE_URL" .existingSecretKey (empty .existingSecret) }}
          {{- end }}
          {{- end }}
          {{- end }}
          securityContext:
            {{- toYaml $root.Values.securityContext | nindent 12 }}
          startupProbe:
            # the orchestrator runs its database migrations before it listens
            httpGet: { path: /api/v1.0/health, port: api, scheme: {{ $scheme }} }
            periodSeconds: 2
            failureThreshold: {{ $values.probes.startupFailureThreshold }}
          livenessProbe:
            httpGet: { path: /api/v1.0/health, port: api, scheme: {{ $scheme }} }
            periodSeconds: {{ $values.probes.periodSeconds }}
            timeoutSeconds: {{ $values.probes.timeoutSeconds }}
            failureThreshold: {{ $values.probes.livenessFailureThreshold }}
          readinessProbe:
            httpGet: { path: /api/v1.0/health, port: api, scheme: {{ $scheme }} }
            periodSeconds: {{ $values.probes.periodSeconds }}
            timeoutSeconds: {{ $values.probes.timeoutSeconds }}
            failureThreshold: {{ $values.probes.readinessFailureThreshold }}
          resources:
            {{- toYaml $values.resources | nindent 12 }}
          volumeMounts:
            # the root file system is read-only: the compile cache, gpg's throw-away home and fetched files go here
            - { name: tmp, mountPath: /tmp }
            {{- if eq $component "orchestrator" }}
            - { name: data, mountPath: {{ $paths.data }} }
            {{- end }}
            {{- if or $root.Values.auth.tokens $root.Values.auth.existingTokensSecret }}
            - { name: tokens, mountPath: {{ dir $paths.tokens }}, readOnly: true }
            {{- end }}
            {{- if $root.Values.auth.policy }}
            - { name: policy, mountPath: {{ dir $paths.policy }}, readOnly: true }
            {{- end }}
            {{- if $root.Values.tls.enabled }}
            - { name: tls, mountPath: {{ $paths.tlsDir }}, readOnly: true }
            {{- end }}
            {{- if $root.Values.tls.caSecretName }}
            - { name: tls-ca, mountPath: {{ $paths.caDir }}, readOnly: true }
            {{- end }}
      volumes:
        - name: tmp
          emptyDir: { sizeLimit: {{ $values.tmpSizeLimit }} }
        {{- if eq $component "orchestrator" }}
        - name: data
          {{- if and $sqlite $values.persistence.enabled }}
          persistentVolumeClaim:
            claimName: {{ default (printf "%s-orchestrator" (include "slipway.fullname" $root)) $values.persistence.existingClaim }}
          {{- else }}
          # PostgreSQL holds the data{{ if $sqlite }}; without persistence the SQLite file goes with the pod{{ end }}
          emptyDir: {}
          {{- end }}
        {{- end }}
        {{- if or $root.Values.auth.tokens $root.Values.auth.existingTokensSecret }}
        - name: tokens
          secret:
            secretName: {{ default (printf "%s-tokens" (include "slipway.fullname" $root)) $root.Values.auth.existingTokensSecret }}
            items: [{ key: tokens.yaml, path: tokens.yaml }]
        {{- end }}
        {{- if $root.Values.auth.policy }}
        - name: policy
          configMap:
            name: {{ include "slipway.fullname" $root }}-policy
        {{- end }}
        {{- if $root.Values.tls.enabled }}
        - name: tls
          secret:
            secretName: {{ $root.Values.tls.secretName }}
            items: [{ key: tls.crt, path: tls.crt }, { key: tls.key, path: tls.key }]
        {{- end }}
        {{- if $root.Values.tls.caSecretName }}
        - name: tls-ca
          secret:
            secretName: {{ $root.Values.tls.caSecretName }}
            items: [{ key: ca.crt, path: ca.crt }]
        {{- end }}
      {{- with $values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.topologySpreadConstraints }}
      topologySpreadConstraints:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end }}
