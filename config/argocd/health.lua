-- Argo CD health check for FlowOps objects: Flow, FlowSource, and the objects a Flow watches
-- (they carry the same Ready/Stalled conditions). Argo CD runs it with the live object as `obj`;
-- install it under resource.customizations.health.<group>_<Kind> in argocd-cm (docs/gitops-tools.md).
-- It reads the conditions the way kstatus (and so Flux's `wait: true`) reads them: a condition
-- written for an older generation says nothing yet, Stalled=True is a failure, Ready decides.
local hs = { status = "Progressing", message = "Waiting for FlowOps to reconcile" }
if obj.status == nil or obj.status.conditions == nil then
  return hs
end
local generation = obj.metadata.generation
local function current(c)
  return c.observedGeneration == nil or generation == nil or c.observedGeneration == generation
end
local ready, stalled
for _, c in ipairs(obj.status.conditions) do
  if c.type == "Ready" and current(c) then ready = c end
  if c.type == "Stalled" and current(c) then stalled = c end
end
if stalled ~= nil and stalled.status == "True" then
  hs.status = "Degraded"
  hs.message = stalled.message
  return hs
end
if ready == nil then
  return hs
end
hs.message = ready.message
if ready.status == "True" then
  if ready.reason == "Suspended" then hs.status = "Suspended" else hs.status = "Healthy" end
elseif ready.status == "False" then
  -- FlowOps still retries a failure that is not Stalled: Argo CD shows it in progress, with why.
  hs.status = "Progressing"
end
return hs
