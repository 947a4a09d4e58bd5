// Schema check of Kubernetes manifests against the Kubernetes and KEDA OpenAPI schemas
// (kubernetes-models). Usage: node validate-k8s.mjs FILE.yaml...  Prints one line per object;
// exits 1 on the first invalid or unknown object.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import * as apps from 'kubernetes-models/apps/v1';
import * as core from 'kubernetes-models/v1';
import * as policy from 'kubernetes-models/policy/v1';
import * as keda from '@kubernetes-models/keda/keda.sh/v1alpha1';

const models = {
  'apps/v1/Deployment': apps.Deployment,
  'v1/ConfigMap': core.ConfigMap,
  'v1/Service': core.Service,
  'policy/v1/PodDisruptionBudget': policy.PodDisruptionBudget,
  'keda.sh/v1alpha1/ScaledObject': keda.ScaledObject,
};

let failed = false;
for (const file of process.argv.slice(2)) {
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    if (doc.errors.length) {
      console.log(`${file}: YAML error: ${doc.errors[0].message}`);
      failed = true;
      continue;
    }
    const obj = doc.toJS();
    if (!obj) continue;
    const key = `${obj.apiVersion}/${obj.kind}`;
    const Model = models[key];
    if (!Model) {
      console.log(`${file}: no schema known for ${key}`);
      failed = true;
      continue;
    }
    try {
      new Model(obj).validate();
      console.log(`${file}: ${key} ${obj.metadata?.name} valid`);
    } catch (e) {
      console.log(`${file}: ${key} ${obj.metadata?.name} INVALID: ${e.message}`);
      failed = true;
    }
  }
}
process.exit(failed ? 1 : 0);
