"""Drives the embedded API server with the official Kubernetes Python client.

Run by test/apiserver/python-client.test.ts with KUBECONFIG and TEST_NAMESPACE set. Prints one JSON
object on its last line with what each step saw; the test asserts on it. Each watch carries
timeout_seconds, so a server that ignores `watch=True` ends the stream (Watch.stream stops after one
request when timeout_seconds is given) instead of looping forever.
"""
import json
import os
import sys

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException
from kubernetes.dynamic import DynamicClient

config.load_kube_config(config_file=os.environ["KUBECONFIG"])
ns = os.environ["TEST_NAMESPACE"]
core = client.CoreV1Api()
out = {}


def cm(name, data):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": ns}, "data": data}


def first_added(name, **kwargs):
    """The first ADDED event for `name` on a ConfigMap watch, or None when the stream ends without one."""
    w = watch.Watch()
    for event in w.stream(core.list_namespaced_config_map, ns, timeout_seconds=5, _request_timeout=10, **kwargs):
        if event["type"] == "ADDED" and event["object"].metadata.name == name:
            w.stop()
            return {"type": event["type"], "name": event["object"].metadata.name}
    return None


# 1. A watch without a resourceVersion starts with ADDED for what exists.
core.create_namespaced_config_map(ns, cm("existing", {"k": "v"}))
out["initial"] = first_added("existing")

# 2. A watch resumed from a list's resourceVersion sees an object created after the list.
rv = core.list_namespaced_config_map(ns).metadata.resource_version
core.create_namespaced_config_map(ns, cm("later", {"k": "v"}))
out["resumed"] = first_added("later", resource_version=rv)

# 3. Server-side apply through the dynamic client: a second manager conflicts, then takes the field
#    with force_conflicts=True (force=True on the wire for clients up to about v30). The body goes as
#    a JSON string: the 22.x REST layer sends only JSON content types from a dict.
dyn = DynamicClient(client.ApiClient())
cms = dyn.resources.get(api_version="v1", kind="ConfigMap")


def apply(manager, value, force=None):
    path = cms.path(name="owned", namespace=ns)
    body = json.dumps(cm("owned", {"k": value}))
    return dyn.request("patch", path, body=body, content_type="application/apply-patch+yaml", field_manager=manager, force_conflicts=force)


apply("alice", "alice")
try:
    apply("bob", "bob")
    out["unforced"] = 200
except ApiException as e:
    out["unforced"] = e.status
forced = apply("bob", "bob", force=True).to_dict()
out["forced"] = {"data": forced["data"], "managers": sorted(m["manager"] for m in forced["metadata"]["managedFields"])}

print(json.dumps(out))
sys.stdout.flush()
