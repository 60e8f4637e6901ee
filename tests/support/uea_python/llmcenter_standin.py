"""A stand-in for ModelBest's LLM center (https://llm-center.modelbest.cn), for UEA's LlmCenterModel class, whose
address is written into the class: reached through an HTTPS proxy of its own, as any client behind a proxy.

usage: llmcenter_standin.py FOLDER
Serves the center's two calls over TLS with FOLDER/cert.pem and FOLDER/key.pem (a certificate for
llm-center.modelbest.cn) behind an HTTP CONNECT proxy on 127.0.0.1, whose port it prints on the first line of
stdout: point HTTPS_PROXY at it and REQUESTS_CA_BUNDLE at the certificate. The token call answers a token; each
model call is appended to FOLDER/calls.log as one JSON line (its headers, and its payload with each data URI
replaced by its sha256) and answered with a JSON "content" that depends on the payload alone.
"""
import hashlib
import json
import os
import socket
import socketserver
import ssl
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

FOLDER = sys.argv[1]
WORDS = ["the cat sat on the mat", "a big dog ran home", "good morning", "one two three"]
TOKEN = "center-token-1"


def digests(value):
    """The payload with every data URI (a clip, base64) replaced by the sha256 of its text."""
    if isinstance(value, dict):
        return {k: digests(v) for k, v in value.items()}
    if isinstance(value, list):
        return [digests(v) for v in value]
    if isinstance(value, str) and value.startswith("data:"):
        return "sha256:" + hashlib.sha256(value.encode()).hexdigest()
    return value


class Center(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.startswith("/llm/client/token/access_token?"):
            self.answer({"code": 0, "data": TOKEN})
        else:
            self.send_error(404)

    def do_POST(self):
        payload = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path != "/llm/client/conv/accessLargeModel/sync":
            return self.send_error(404)
        record = {"app-token": self.headers.get("app-token"), "app-code": self.headers.get("app-code"),
                  "payload": digests(payload)}
        line = json.dumps(record, sort_keys=True)
        with open(os.path.join(FOLDER, "calls.log"), "a") as log:
            log.write(line + "\n")
        words = WORDS[int(hashlib.sha256(line.encode()).hexdigest()[:8], 16) % len(WORDS)]
        self.answer({"code": 0, "data": {"messages": [{"content": json.dumps({"content": words})}]}})


class Proxy(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def pipe(source, sink):
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        sink.close()


def main():
    center = HTTPServer(("127.0.0.1", 0), Center)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(FOLDER, "cert.pem"), os.path.join(FOLDER, "key.pem"))
    center.socket = context.wrap_socket(center.socket, server_side=True)
    threading.Thread(target=center.serve_forever, daemon=True).start()
    center_port = center.server_address[1]

    class Tunnel(socketserver.BaseRequestHandler):
        def handle(self):
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = self.request.recv(4096)
                if not chunk:
                    return
                request += chunk
            if not request.startswith(b"CONNECT llm-center.modelbest.cn:443 "):
                self.request.sendall(b"HTTP/1.1 403 Forbidden\r\n\r\n")
                return
            upstream = socket.create_connection(("127.0.0.1", center_port))
            self.request.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            threading.Thread(target=pipe, args=(upstream, self.request), daemon=True).start()
            pipe(self.request, upstream)

    proxy = Proxy(("127.0.0.1", 0), Tunnel)
    print(proxy.server_address[1], flush=True)
    proxy.serve_forever()


if __name__ == "__main__":
    main()
