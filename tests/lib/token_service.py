#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/lib/token_service.py PORTFILE KEY CERT SERVICE ISSUER USER:PASS LOG: the Bearer
token service of tests/registry.sh, as the distribution registry's `auth: token:` expects.

GET /token?scope=repository:NAME:pull&service=SERVICE with Basic credentials USER:PASS
answers {"token": JWT}: an RS256 JWT (signed with `openssl dgst -sign KEY`) whose `x5c`
header carries CERT (the registry's rootcertbundle), granting the scope's actions. Wrong
or missing credentials: 401. Every request is logged to LOG ("GET PATH auth=yes|no").
"""
import base64, json, os, subprocess, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

portfile, key, cert, service, issuer, creds, logfile = sys.argv[1:8]
der = subprocess.run(["openssl", "x509", "-in", cert, "-outform", "DER"], check=True,
                     capture_output=True).stdout
good = "Basic " + base64.b64encode(creds.encode()).decode()


def b64(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def jwt(access):
    head = {"alg": "RS256", "typ": "JWT", "x5c": [base64.b64encode(der).decode()]}
    now = int(time.time())
    claims = {"iss": issuer, "sub": creds.split(":")[0], "aud": service, "iat": now - 10,
              "nbf": now - 10, "exp": now + 300, "jti": os.urandom(8).hex(), "access": access}
    signing = f"{b64(json.dumps(head).encode())}.{b64(json.dumps(claims).encode())}"
    sig = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key], input=signing.encode(),
                         check=True, capture_output=True).stdout
    return f"{signing}.{b64(sig)}"


class Token(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_GET(self):
        with open(logfile, "a") as f:
            f.write(f"GET {self.path} auth={'yes' if self.headers.get('Authorization') else 'no'}\n")
        u = urlparse(self.path)
        if u.path != "/token" or self.headers.get("Authorization") != good:
            self.send_response(401)
            self.end_headers()
            return
        access = []
        for scope in parse_qs(u.query).get("scope", []):
            kind, name, actions = scope.split(":", 2) if scope.count(":") >= 2 else ("", "", "")
            access.append({"type": kind, "name": name, "actions": actions.split(",")})
        body = json.dumps({"token": jwt(access)}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


srv = ThreadingHTTPServer(("127.0.0.1", 0), Token)
with open(portfile + ".tmp", "w") as f:
    f.write(f"{srv.server_address[1]}\n")
os.rename(portfile + ".tmp", portfile)
srv.serve_forever()
