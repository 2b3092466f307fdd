#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/hostile/evil_registry.py MODE PORTFILE: a hostile registry for tests/hostile.sh.

Serves one image `x/img:1` (a manifest and a config saying CUDA_VERSION=12.4.1, made
here) on 127.0.0.1, on a free port written to PORTFILE, and misbehaves as MODE says:
  retry-after   the first manifest GET is 503 with `Retry-After: 99999999999999999999`
                (past a long), then the image is served
  redirect-loop every GET is a 307 to itself
  realm-file    every GET without Authorization is 401 with a Bearer challenge whose
                realm is file:///etc/passwd
"""
import hashlib, json, os, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

mode, portfile = sys.argv[1], sys.argv[2]
config = json.dumps({"architecture": "amd64", "os": "linux",
                     "config": {"Env": ["CUDA_VERSION=12.4.1"]},
                     "rootfs": {"type": "layers", "diff_ids": []}}).encode()
cdig = "sha256:" + hashlib.sha256(config).hexdigest()
manifest = json.dumps({"schemaVersion": 2,
                       "mediaType": "application/vnd.oci.image.manifest.v1+json",
                       "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                                  "digest": cdig, "size": len(config)},
                       "layers": []}).encode()
lock = threading.Lock()
state = {"refused": False}


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def reply(self, code, body=b"", headers=()):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        p = self.path
        if mode == "redirect-loop":
            return self.reply(307, headers=[("Location", p)])
        if mode == "realm-file" and "Authorization" not in self.headers:
            return self.reply(401, headers=[("WWW-Authenticate",
                                             'Bearer realm="file:///etc/passwd",service="x"')])
        if mode == "retry-after" and "/manifests/" in p:
            with lock:
                first, state["refused"] = not state["refused"], True
            if first:
                return self.reply(503, headers=[("Retry-After", "9" * 20)])
        if "/manifests/" in p:
            return self.reply(200, manifest, [("Content-Type",
                                               "application/vnd.oci.image.manifest.v1+json")])
        if p.endswith("/blobs/" + cdig):
            return self.reply(200, config)
        if p == "/v2/":
            return self.reply(200, b"{}")
        return self.reply(404)


server = ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(portfile + ".tmp", "w") as f:
    f.write(str(server.server_port))
os.replace(portfile + ".tmp", portfile)
server.serve_forever()
