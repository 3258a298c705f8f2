"""Extracts one Kubernetes version's strict JSON schemas from the kubernetes-validate wheel (PyPI) for kubeconform.

The wheel's schemas name their definitions by an absolute reference (/api/_definitions.json, resolved by
kubernetes-validate's own loader) under an https $id; kubeconform resolves references against the file instead.
So each schema loses its $id and those references become relative (_definitions.json#/$defs/...); nothing else
changes. Usage: python3 kubernetes-schemas.py WHEEL v1.34.0 OUT_DIR  (writes OUT_DIR/v1.34.0-local-strict/).
"""
import json, sys, zipfile, os
wheel, version, out = sys.argv[1], sys.argv[2], sys.argv[3]
prefix = f'kubernetes_validate/kubernetes-json-schema/{version}-local-strict/'
def fix(node):
    if isinstance(node, dict):
        ref = node.get('$ref')
        if isinstance(ref, str) and ref.startswith('/api/_definitions.json'):
            node['$ref'] = ref[len('/api/'):]
        for v in node.values(): fix(v)
    elif isinstance(node, list):
        for v in node: fix(v)
z = zipfile.ZipFile(wheel)
target = os.path.join(out, f'{version}-local-strict')
os.makedirs(target, exist_ok=True)
n = 0
for name in z.namelist():
    if not name.startswith(prefix) or not name.endswith('.json'): continue
    doc = json.loads(z.read(name))
    if isinstance(doc, dict): doc.pop('$id', None)
    fix(doc)
    with open(os.path.join(target, name[len(prefix):]), 'w') as f: json.dump(doc, f)
    n += 1
print(n)
