// SPDX-License-Identifier: Apache-2.0
// tests/lib/k8s_validate.js MODELS_DIR < objects.json: validate Kubernetes objects (a JSON
// array, as python3's yaml turns a multi-document file into) against the Kubernetes
// schema offline with the npm package kubernetes-models (kubectl needs a server for it).
// Prints one line per object; exits 1 on the first invalid one.
// kubernetes-models 5 is an ES module: it is loaded with import(), which Debian 12's
// Node.js 18 has (require() of an ES module needs Node.js >= 20.19).
const path = require("path");
const { pathToFileURL } = require("url");
const models = process.argv[2];
const docs = JSON.parse(require("fs").readFileSync(0, "utf8"));
const groups = { v1: "v1", "batch/v1": "batch/v1", "apps/v1": "apps/v1" };

async function main() {
  let bad = 0;
  for (const d of docs) {
    const dir = groups[d.apiVersion];
    if (!dir) { console.log(`unknown apiVersion ${d.apiVersion}`); bad = 1; continue; }
    const file = path.join(models, "kubernetes-models", dir, `${d.kind}.js`);
    const Model = (await import(pathToFileURL(file).href))[d.kind];
    try {
      new Model(d).validate();
      console.log(`valid ${d.apiVersion} ${d.kind} ${d.metadata.name}`);
    } catch (e) {
      console.log(`invalid ${d.kind} ${d.metadata && d.metadata.name}: ${e.message}`);
      bad = 1;
    }
  }
  return bad;
}
main().then((bad) => process.exit(bad), (e) => { console.log(`error: ${e.message}`); process.exit(1); });
