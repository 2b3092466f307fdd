#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/lib/registry_stub.py MODE PORTFILE LOG: a misbehaving registry for tests/registry.sh
and tests/hostile.sh.

Serves one image `x/img:1` (a manifest and its config, made here) on 127.0.0.1, on a free
port written to PORTFILE, and misbehaves as MODE says:
  stall     accepts connections and never answers
  mismatch  serves a config blob whose bytes do not match its digest
  busy      answers 429 twice (and 503 once), then serves the image
  big       serves a manifest larger than 4 MiB
  redirect  asks for Basic auth (user u, password RedirectSecret1), and redirects the
            config and layer blob GETs to a second server on another port (a "CDN") that
            records whether it was sent an Authorization header
  layer-mismatch  serves, for the layer's digest, another layer (a valid one)
  layer-stall     sends the first bytes of the layer, then nothing
  retry-after     the first manifest GET is 503 with `Retry-After: 99999999999999999999`
                  (past a long), then the image is served (tests/hostile.sh)
  redirect-loop   every GET is a 307 to itself (tests/hostile.sh)
  realm-file      every GET without Authorization is 401 with a Bearer challenge whose
                  realm is file:///etc/passwd (tests/hostile.sh)
The image has one gzip'd layer (made here by tarfile and gzip) holding a driver library,
read only with --layers.
Every request is logged to LOG as "PORT METHOD PATH auth=yes|no".
"""
import base64, gzip, hashlib, io, json, sys, tarfile, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

mode, portfile, logfile = sys.argv[1], sys.argv[2], sys.argv[3]


def layer_of(name):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as t:
        info = tarfile.TarInfo(name)
        info.size = 4
        t.addfile(info, io.BytesIO(b"drv\n"))
    return gzip.compress(raw.getvalue(), mtime=0)


layer = layer_of("usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05")
other = layer_of("etc/other")
ldig = "sha256:" + hashlib.sha256(layer).hexdigest()
config = json.dumps({"architecture": "amd64", "os": "linux",
                     "config": {"Env": ["CUDA_VERSION=12.4.1"]},
                     "rootfs": {"type": "layers", "diff_ids": []}}).encode()
cdig = "sha256:" + hashlib.sha256(config).hexdigest()
manifest = json.dumps({"schemaVersion": 2,
                       "mediaType": "application/vnd.oci.image.manifest.v1+json",
                       "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                                  "digest": cdig, "size": len(config)},
                       "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip",
                                   "digest": ldig, "size": len(layer)}]}).encode()
if mode == "big":
    manifest = manifest[:-1] + b', "pad": "' + b"x" * (5 << 20) + b'"}'
mdig = "sha256:" + hashlib.sha256(manifest).hexdigest()
lock = threading.Lock()
count = {"n": 0, "manifests": 0}
good = "Basic " + base64.b64encode(b"u:RedirectSecret1").decode()
cdn_port = {"p": 0}


def log(port, h):
    with lock, open(logfile, "a") as f:
        f.write(f"{port} {h.command} {h.path} auth={'yes' if h.headers.get('Authorization') else 'no'}\n")


class Registry(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def send(self, code, body=b"", ctype="application/json", extra=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        log(self.server.server_address[1], self)
        if mode == "stall":
            time.sleep(30)
            return
        with lock:
            count["n"] += 1
            n = count["n"]
        if mode == "redirect-loop":
            return self.send(307, b"", extra=[("Location", self.path)])
        if mode == "realm-file" and not self.headers.get("Authorization"):
            return self.send(401, b"{}", extra=[
                ("WWW-Authenticate", 'Bearer realm="file:///etc/passwd",service="x"')])
        if mode == "retry-after" and "/manifests/" in self.path:
            with lock:
                count["manifests"] += 1
                first = count["manifests"] == 1
            if first:
                return self.send(503, b"{}", extra=[("Retry-After", "9" * 20)])
        if mode == "busy" and n <= 3:
            return self.send(429 if n < 3 else 503, b"{}", extra=[("Retry-After", "0")])
        if mode == "redirect" and self.headers.get("Authorization") != good:
            return self.send(401, b'{"errors":[{"code":"UNAUTHORIZED"}]}',
                             extra=[("WWW-Authenticate", 'Basic realm="stub"')])
        if self.path == "/v2/x/img/manifests/1" or self.path == f"/v2/x/img/manifests/{mdig}":
            return self.send(200, manifest, "application/vnd.oci.image.manifest.v1+json")
        if self.path == f"/v2/x/img/blobs/{cdig}":
            if mode == "redirect":
                return self.send(307, b"", extra=[
                    ("Location", f"http://127.0.0.1:{cdn_port['p']}/blob/{cdig}")])
            return self.send(200, config + (b" " if mode == "mismatch" else b""))
        if self.path == f"/v2/x/img/blobs/{ldig}":
            if mode == "redirect":
                return self.send(307, b"", extra=[
                    ("Location", f"http://127.0.0.1:{cdn_port['p']}/blob/{ldig}")])
            if mode == "layer-stall":
                self.send_response(200)
                self.send_header("Content-Length", str(len(layer)))
                self.end_headers()
                self.wfile.write(layer[:10])
                self.wfile.flush()
                time.sleep(30)
                return
            return self.send(200, other if mode == "layer-mismatch" else layer,
                             "application/octet-stream")
        self.send(404, b'{"errors":[{"code":"MANIFEST_UNKNOWN"}]}')


class Cdn(Registry):
    def do_GET(self):
        log(self.server.server_address[1], self)
        if self.path == f"/blob/{cdig}":
            return self.send(200, config, "application/octet-stream")
        if self.path == f"/blob/{ldig}":
            return self.send(200, layer, "application/octet-stream")
        self.send(404)


cdn = ThreadingHTTPServer(("127.0.0.1", 0), Cdn)
cdn_port["p"] = cdn.server_address[1]
threading.Thread(target=cdn.serve_forever, daemon=True).start()
srv = ThreadingHTTPServer(("127.0.0.1", 0), Registry)
srv.daemon_threads = True
with open(portfile + ".tmp", "w") as f:
    f.write(f"{srv.server_address[1]}\n")
import os
os.rename(portfile + ".tmp", portfile)
srv.serve_forever()
