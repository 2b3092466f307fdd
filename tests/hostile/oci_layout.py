#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/hostile/oci_layout.py KIND[=ARG] OUT LAYER...: wrap layer blobs (made by tar,
bsdtar, gzip, zstd) into an OCI image layout directory OUT, computing every digest, so
that tests/hostile.sh can break exactly one thing. Blobs are streamed (a bomb stays on
disk). The image's platform is linux/amd64 (the index says so).

KIND: ok               correct digests
      missing-blob     the manifest names one more layer, whose blob is not there
      wrong-digest     the first layer's blob is stored under its digest, then one byte
                       of it is changed (of a file's data in a plain tar)
      deep-index       index.json is 10^6 nested JSON arrays
      deep-manifest    the manifest (stored under its right digest) is 10^6 nested arrays
      deep-config      the config (stored under its right digest) nests 10^6 objects
      config-nul       the config holds a NUL byte and invalid UTF-8 in an Env string
      fanout=N         index.json names the one manifest N times
      nested=D,K       D indexes nested in one another, each naming the next K times (the
                       last names the manifest K times); index.json names the first K times
      big-manifest=B   the manifest padded (an annotation) to B bytes, under its digest
      big-tag=B        index.json's ref.name annotation is a tag of B bytes
      two-platform     two images in one index: the first layer is linux/amd64's, the
                       second linux/arm64's
"""
import hashlib, json, os, shutil, sys

kind, _, arg = sys.argv[1].partition("=")
out, layers = sys.argv[2], sys.argv[3:]
blobs = os.path.join(out, "blobs", "sha256")
os.makedirs(blobs, exist_ok=True)
DEEP = 10 ** 6

def put(data):
    h = hashlib.sha256(data).hexdigest()
    with open(os.path.join(blobs, h), "wb") as f:
        f.write(data)
    return "sha256:" + h

def put_file(path):
    h, size, head = hashlib.sha256(), 0, b""
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            head = head or chunk[:8]
            h.update(chunk)
            size += len(chunk)
    shutil.copyfile(path, os.path.join(blobs, h.hexdigest()))
    return "sha256:" + h.hexdigest(), size, head

def media(head):
    if head[:2] == b"\x1f\x8b": return "application/vnd.oci.image.layer.v1.tar+gzip"
    if head[:4] == b"\x28\xb5\x2f\xfd": return "application/vnd.oci.image.layer.v1.tar+zstd"
    return "application/vnd.oci.image.layer.v1.tar"

def layer_descs(paths):
    descs = []
    for path in paths:
        digest, size, head = put_file(path)
        descs.append({"mediaType": media(head), "digest": digest, "size": size})
    return descs

def corrupt(d):
    p = os.path.join(blobs, d["digest"][7:])
    at = min(600, d["size"] - 1)
    if d["mediaType"].endswith(".tar"):  # a byte of file data: the tar stays valid
        import tarfile
        with tarfile.open(p) as t:
            at = next(m.offset_data for m in t.getmembers() if m.isfile() and m.size)
    with open(p, "r+b") as f:
        f.seek(at)
        b = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([b[0] ^ 0x55]))

def image(descs, arch, kind):
    """Config and manifest blobs of one image: its manifest's descriptor."""
    env = ["PATH=/usr/bin", "CUDA_VERSION=12.4.1"]
    config = json.dumps({"architecture": arch, "os": "linux", "config": {"Env": env},
                         "rootfs": {"type": "layers", "diff_ids": []}}).encode()
    if kind == "deep-config":
        config = b'{"architecture":"amd64","os":"linux","config":' + b'{"a":' * DEEP + b'1' + b'}' * DEEP + b'}'
    if kind == "config-nul":
        config = config.replace(b"CUDA_VERSION=12.4.1", b"CUDA_VERSION=12.4\\u0000.1\xff\xfe")
    cdig = put(config)
    m = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
         "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                    "digest": cdig, "size": len(config)},
         "layers": descs}
    manifest = json.dumps(m).encode()
    if kind == "big-manifest":
        m["annotations"] = {"pad": ""}
        base = len(json.dumps(m, separators=(",", ":")))
        m["annotations"]["pad"] = "x" * (int(arg) - base)
        manifest = json.dumps(m, separators=(",", ":")).encode()
    if kind == "deep-manifest":
        manifest = b"[" * DEEP + b"]" * DEEP
    return {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": put(manifest),
            "size": len(manifest), "platform": {"os": "linux", "architecture": arch},
            "annotations": {"org.opencontainers.image.ref.name": "hostile:1"}}

def nest(desc, depth, k):
    """depth indexes, each naming the next k times; the descriptor of the outermost."""
    for _ in range(depth):
        index = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json",
                            "manifests": [desc] * k}).encode()
        desc = {"mediaType": "application/vnd.oci.image.index.v1+json", "digest": put(index),
                "size": len(index)}
    return desc

if kind == "two-platform":
    top = [image(layer_descs(layers[:1]), "amd64", kind), image(layer_descs(layers[1:]), "arm64", kind)]
else:
    descs = layer_descs(layers)
    if kind == "wrong-digest":
        corrupt(descs[0])
    if kind == "missing-blob":
        descs.append({"mediaType": "application/vnd.oci.image.layer.v1.tar",
                      "digest": "sha256:" + "0" * 64, "size": 10})
    top = [image(descs, "amd64", kind)]
if kind == "fanout":
    top = top * int(arg)
if kind == "nested":
    depth, k = map(int, arg.split(","))
    top = [nest(top[0], depth, k)] * k
if kind == "big-tag":
    top[0]["annotations"]["org.opencontainers.image.ref.name"] = "hostile:" + "t" * (int(arg) - 8)
index = json.dumps({"schemaVersion": 2, "manifests": top})
if kind == "deep-index":
    index = "[" * DEEP + "]" * DEEP
with open(os.path.join(out, "index.json"), "w") as f:
    f.write(index)
with open(os.path.join(out, "oci-layout"), "w") as f:
    f.write('{"imageLayoutVersion":"1.0.0"}')
