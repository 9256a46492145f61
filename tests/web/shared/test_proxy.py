"""``carom serve --proxy`` behind Debian's nginx with TLS, configured by the site file that
docs/deploy.md gives (``deploy/nginx-carom.conf``), with a certificate made here: pages
over https, plain http sent there, the scheme believed from the proxy (a form from an
https page is the server's own, the session cookie ``Secure``), live channels through it,
a large body refused."""

from __future__ import annotations

import re
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.storage.postgres import free_port
from tests.web.server import ORGANISER, PASSWORD, Server

SITE = Path(__file__).parents[3] / "deploy" / "nginx-carom.conf"


class Proxy:
    def __init__(self, https: int, http: int, certificate: Path) -> None:
        self.https, self.http, self.certificate = https, http, certificate
        self.url = f"https://127.0.0.1:{https}"


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    folder = tmp_path_factory.mktemp("proxy")
    server = Server(folder / "data", options=("--proxy", "127.0.0.1")).start()
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(certificate), "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    https, http = free_port(), free_port()
    site = SITE.read_text()
    for old, new in (("127.0.0.1:8000", f"127.0.0.1:{server.port}"),
                     ("listen 80;", f"listen 127.0.0.1:{http};"),
                     ("listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;"),
                     ("/etc/ssl/carom/fullchain.pem", str(certificate)),
                     ("/etc/ssl/carom/privkey.pem", str(key))):
        assert old in site, old
        site = site.replace(old, new)
    site = re.sub(r"\n\s*listen \[::\]:\d+[^\n]*", "", site)  # no IPv6 on every test machine
    (folder / "site.conf").write_text(site)
    (folder / "nginx.conf").write_text(
        f"daemon off; user root; worker_processes 1; pid {folder}/nginx.pid; error_log {folder}/error.log;\n"
        "events { worker_connections 256; }\n"
        f"http {{ access_log off; client_body_temp_path {folder}/body; proxy_temp_path {folder}/proxy;\n"
        f"       include {folder}/site.conf; }}\n")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen([nginx, "-p", str(folder), "-c", str(folder / "nginx.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", https), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield Proxy(https, http, certificate)
    finally:
        process.terminate()
        process.wait(timeout=10)
        server.stop()


def _trusting(proxy: Proxy) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(proxy.certificate))


def test_the_pages_come_over_https_and_plain_http_is_sent_there(proxy: Proxy) -> None:
    page = httpx.get(proxy.url + "/", verify=_trusting(proxy))
    assert page.status_code == 200 and "carom" in page.text
    plain = httpx.get(f"http://127.0.0.1:{proxy.http}/hall", follow_redirects=False)
    assert plain.status_code == 301 and plain.headers["location"].startswith("https://")


def test_the_scheme_is_the_proxys_so_an_https_page_may_send_forms(proxy: Proxy) -> None:
    with httpx.Client(base_url=proxy.url, verify=_trusting(proxy)) as client:
        login = {"name": ORGANISER, "password": PASSWORD}
        own = client.post("/login", data=login, headers={"Origin": proxy.url}, follow_redirects=False)
        assert own.status_code == 303, own.text[:300]
        assert "Secure" in own.headers["set-cookie"]  # https as the proxy says, though the server's is http
        other = client.post("/login", data=login,
                            headers={"Origin": proxy.url.replace("https:", "http:")})
        assert other.status_code == 403 and "another site" in other.text


def test_live_channels_and_body_limits_hold_through_the_proxy(proxy: Proxy) -> None:
    context = _trusting(proxy)
    address = f"wss://127.0.0.1:{proxy.https}/hall/events"
    with connect(address, ssl=context, open_timeout=15) as channel:
        channel.send("ignored")  # what a page sends is not read
    too_large = httpx.post(proxy.url + "/api/simulate", content=b"x" * (64 * 1024),
                           headers={"Content-Type": "application/json"}, verify=_trusting(proxy))
    assert too_large.status_code == 413
