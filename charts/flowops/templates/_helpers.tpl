{{/* Release-scoped name: "flowops" for a release named flowops, else "<release>-flowops". */}}
{{- define "flowops.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "flowops.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "flowops.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "flowops.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: flowops
{{- end -}}

{{- define "flowops.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "flowops.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "flowops.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* REDIS_URL: the bundled Redis, a Secret, or redis.url. */}}
{{- define "flowops.redisEnv" -}}
- name: REDIS_URL
{{- if .Values.redis.bundled }}
  value: {{ printf "redis://%s-redis:6379" (include "flowops.fullname" .) | quote }}
{{- else if .Values.redis.existingSecret }}
  valueFrom:
    secretKeyRef:
      name: {{ .Values.redis.existingSecret }}
      key: {{ .Values.redis.existingSecretKey }}
{{- else }}
  value: {{ required "set redis.url, redis.existingSecret or redis.bundled=true" .Values.redis.url | quote }}
{{- end }}
{{- end -}}

{{/*
The pod template shared by the controller and worker Deployments.
Call with (dict "root" $ "component" "controller" "name" "controller" "args" list "ports" list "values" .Values.controller).
*/}}
{{- define "flowops.podTemplate" -}}
{{- $root := .root -}}
metadata:
  labels:
    app: flowops-engine
    {{- include "flowops.selectorLabels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ .component }}
    {{- with $root.Values.podLabels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- if or $root.Values.metrics.podAnnotations $root.Values.podAnnotations }}
  annotations:
    {{- if $root.Values.metrics.podAnnotations }}
    prometheus.io/scrape: "true"
    prometheus.io/port: {{ $root.Values.metrics.port | quote }}
    prometheus.io/path: /metrics
    {{- end }}
    {{- with $root.Values.podAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- end }}
spec:
  serviceAccountName: {{ include "flowops.serviceAccountName" $root }}
  terminationGracePeriodSeconds: {{ .values.terminationGracePeriodSeconds }}
  {{- with $root.Values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $root.Values.priorityClassName }}
  priorityClassName: {{ . }}
  {{- end }}
  securityContext:
    {{- toYaml $root.Values.podSecurityContext | nindent 4 }}
  containers:
    - name: {{ .component }}
      image: {{ include "flowops.image" $root }}
      imagePullPolicy: {{ $root.Values.image.pullPolicy }}
      args:
        {{- toYaml (concat .args .values.extraArgs) | nindent 8 }}
      env:
        {{- include "flowops.redisEnv" $root | nindent 8 }}
        - name: POD_NAME
          valueFrom:
            fieldRef:
              fieldPath: metadata.name
        - name: POD_NAMESPACE
          valueFrom:
            fieldRef:
              fieldPath: metadata.namespace
        {{- with .values.extraEnv }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      ports:
        {{- toYaml .ports | nindent 8 }}
      startupProbe:
        httpGet:
          path: /healthz
          port: metrics
        periodSeconds: 2
        failureThreshold: 30
      livenessProbe:
        httpGet:
          path: /healthz
          port: metrics
        periodSeconds: 20
        timeoutSeconds: 5
        failureThreshold: 3
      readinessProbe:
        httpGet:
          path: /readyz
          port: metrics
        periodSeconds: 10
        timeoutSeconds: 5
      resources:
        {{- toYaml .values.resources | nindent 8 }}
      securityContext:
        {{- toYaml $root.Values.securityContext | nindent 8 }}
      volumeMounts:
        - name: tmp
          mountPath: /tmp
        - name: data
          mountPath: /data
        {{- with .volumeMounts }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
  volumes:
    - name: tmp
      emptyDir:
        sizeLimit: {{ $root.Values.tmpSizeLimit }}
    - name: data
      emptyDir:
        sizeLimit: {{ $root.Values.dataSizeLimit }}
    {{- with .volumes }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with $root.Values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $root.Values.affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $root.Values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}
