#!/usr/bin/env bash
# Hostile clients against `moneyflow serve` on loopback, bounded (about two minutes after the
# build), as in issue #28: prints the figures its "done when" asks for. Not part of the default
# test run. Needs curl and python3.
#
#   bash scripts/hostile-load-server.sh
#   ROWS=10000 FLOOD=40 FLOOD_SECONDS=8 UPLOADS=8 UPLOAD_MIB=40 bash scripts/hostile-load-server.sh
#
# 1. One user floods: FLOOD clients (default 40) send GET /v1/reconcile on a ledger of ROWS
#    transactions (default 10,000) again and again for FLOOD_SECONDS, as fast as answers come;
#    meanwhile another user's GET /v1/accounts is timed. Passes when it takes at most
#    max(10x its idle time, 500 ms). Shows how the flood was answered (200 / 429).
# 2. One user sends UPLOADS (default 8) uploads of UPLOAD_MIB MiB (default 40) at once; the
#    server's resident memory is sampled every 20 ms. Passes when it grows by at most 150 MiB.
# 3. An anonymous client declares a 64 MiB upload and keeps sending after its 401. Passes when
#    the answer carries Connection: close, the server closes the connection, and what the client
#    got into the sockets after the 401 is not the body (the kernels' buffers, a few MiB).
#    Also 50 clients trickle a head one byte a second: passes when every one is closed within
#    15 s (the 10 s header timeout).
# Exit status 1 when a check fails. KEEP=1 keeps the data folder.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/lib/serve.sh
ROWS=${ROWS:-10000}
FLOOD=${FLOOD:-40}
FLOOD_SECONDS=${FLOOD_SECONDS:-8}
UPLOADS=${UPLOADS:-8}
UPLOAD_MIB=${UPLOAD_MIB:-40}

swift build --product moneyflow >&2
mf="$ROOT/.build/debug/moneyflow"

begin_run hostile-load flooder
other=$("$mf" users add other --data "$work/data" | tail -n 1)
start_serve hostile-load

# The flooder's ledger: ROWS card transactions in a Chase checking export (header sniffed).
python3 - "$ROWS" >"$work/big.csv" <<'PY'
import datetime, random, sys
rows = int(sys.argv[1])
rng = random.Random(28)
print("Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #")
day = datetime.date(2024, 1, 1)
for i in range(rows):
    d = day + datetime.timedelta(days=i * 730 // rows)
    amount = rng.randint(-25000, 9000) / 100 or 1.0
    kind = "DEBIT" if amount < 0 else "CREDIT"
    print(f'{kind},{d:%m/%d/%Y},"MERCHANT {rng.randint(1, 900)} STORE #{i}",{amount:.2f},ACH_DEBIT, ,,')
PY
status=$(curl -s -o "$work/import.json" -w '%{http_code}' -X POST -H "Authorization: Bearer $token" \
    --data-binary "@$work/big.csv" "$base/v1/imports?filename=chase_checking.csv")
[ "$status" = 200 ] || { echo "hostile-load: importing the $ROWS-row ledger answered $status: $(cat "$work/import.json")" >&2; exit 1; }

python3 - "$base" "$token" "$other" "$server_pid" "$FLOOD" "$FLOOD_SECONDS" "$UPLOADS" "$UPLOAD_MIB" <<'PY'
import collections, http.client, os, select, socket, statistics, sys, threading, time, urllib.parse
base, flooder, other, pid = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
flood, flood_seconds, uploads, upload_mib = (int(a) for a in sys.argv[5:9])
port = urllib.parse.urlparse(base).port
checks = {}

def get(path, token, timeout=120):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    start = time.monotonic()
    c.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    r = c.getresponse(); r.read(); c.close()
    return r.status, (time.monotonic() - start) * 1000

def rss_mib():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"): return int(line.split()[1]) / 1024
    return 0.0

# 1. One user's flood of heavy reads; another user's read meanwhile.
for _ in range(3): get("/v1/accounts", other)
idle = statistics.median(get("/v1/accounts", other)[1] for _ in range(20))
heavy = statistics.median(get("/v1/reconcile", flooder)[1] for _ in range(3))
answers, stop = collections.Counter(), time.monotonic() + flood_seconds
lock = threading.Lock()
def flood_client():
    while time.monotonic() < stop:
        try: s, _ = get("/v1/reconcile", flooder)
        except Exception as e: s = type(e).__name__
        with lock: answers[s] += 1
        if s == 429: time.sleep(0.05)
threads = [threading.Thread(target=flood_client) for _ in range(flood)]
for t in threads: t.start()
time.sleep(1.0)
during = []
while time.monotonic() < stop - 0.5:
    during.append(get("/v1/accounts", other)[1])
    time.sleep(0.25)
for t in threads: t.join()
limit = max(10 * idle, 500.0)
worst = max(during)
checks["another user's read during the flood <= max(10x idle, 500 ms)"] = worst <= limit
print(f"hostile-load: 1. GET /v1/reconcile alone {heavy:.0f} ms; {flood} clients flood it for {flood_seconds} s: "
      + ", ".join(f"{n} x {s}" for s, n in sorted(answers.items(), key=str)))
print(f"hostile-load: 1. the other user's GET /v1/accounts: idle {idle:.1f} ms (median of 20); during the flood "
      f"median {statistics.median(during):.1f} ms, max {worst:.1f} ms of {len(during)} (limit {limit:.0f} ms)")

# 2. One user's concurrent large uploads: the server's resident memory.
body_chunk = b"x" * (1 << 20)
def upload(result, i, barrier):
    s = socket.create_connection(("127.0.0.1", port), timeout=120)
    head = (f"POST /v1/imports?filename=big{i}.csv HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {flooder}\r\n"
            f"Content-Type: text/csv\r\nContent-Length: {upload_mib << 20}\r\n\r\n").encode()
    barrier.wait()
    sent, answer = 0, b""
    try:
        s.sendall(head)
        while sent < upload_mib << 20:
            if select.select([s], [], [], 0)[0]: break  # answered before the body was sent
            s.sendall(body_chunk); sent += len(body_chunk)
    except OSError: pass
    try:
        while b"\r\n\r\n" not in answer:
            part = s.recv(65536)
            if not part: break
            answer += part
    except OSError: pass
    s.close()
    result[i] = (answer.split(b" ")[1].decode() if answer.startswith(b"HTTP/") else "no answer", sent >> 20)
time.sleep(1.0)
base_rss, peak, sampling = rss_mib(), [0.0], [True]
def sample():
    while sampling[0]:
        peak[0] = max(peak[0], rss_mib()); time.sleep(0.02)
sampler = threading.Thread(target=sample); sampler.start()
result, barrier = {}, threading.Barrier(uploads)
ups = [threading.Thread(target=upload, args=(result, i, barrier)) for i in range(uploads)]
for t in ups: t.start()
for t in ups: t.join()
time.sleep(0.5); sampling[0] = False; sampler.join()
grew = peak[0] - base_rss
checks["concurrent uploads by one user add <= 150 MiB"] = grew <= 150
statuses = collections.Counter(s for s, _ in result.values())
print(f"hostile-load: 2. {uploads} x {upload_mib} MiB uploads by one user at once: "
      + ", ".join(f"{n} x {s}" for s, n in sorted(statuses.items()))
      + f"; MiB sent per upload {sorted(m for _, m in result.values())}")
print(f"hostile-load: 2. server RSS {base_rss:.0f} MiB before, peak {peak[0]:.0f} MiB: +{grew:.0f} MiB (limit 150)")

# 3. An anonymous upload after its 401, and trickling heads.
s = socket.create_connection(("127.0.0.1", port), timeout=15)
declared = 64 << 20
s.sendall(f"POST /v1/imports?filename=a.csv HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {declared}\r\n\r\n".encode())
answer = b""
while b"\r\n\r\n" not in answer:
    part = s.recv(65536)
    if not part: break
    answer += part
head = answer.split(b"\r\n\r\n")[0].decode(errors="replace").lower()
after = 0
try:
    while after < declared:
        s.sendall(body_chunk); after += len(body_chunk)
except OSError: pass
closed = False
try:
    while True:
        part = s.recv(65536)
        if not part: closed = True; break
except ConnectionResetError: closed = True
except OSError: pass
s.close()
status = head.split(" ")[1] if head.startswith("http/") else "no answer"
checks["an anonymous client cannot send its body after the 401"] = (
    status == "401" and "connection: close" in head and closed and after < declared)
print(f"hostile-load: 3. anonymous 64 MiB upload: {status}{' with Connection: close' if 'connection: close' in head else ''}; "
      f"after it the client got {after >> 20} MiB into the sockets before the server closed "
      f"({'closed' if closed else 'still open'})")
trickle = []
for _ in range(50):
    t = socket.create_connection(("127.0.0.1", port), timeout=5); t.setblocking(False); trickle.append(t)
text, start, open_after = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 40, time.monotonic(), None
for i in range(len(text)):
    for t in trickle:
        try: t.send(text[i:i + 1])
        except OSError: pass
    time.sleep(1.0)
    if time.monotonic() - start >= 15: break
def is_open(t):
    try: return t.recv(1) != b""
    except BlockingIOError: return True
    except OSError: return False
open_after = sum(is_open(t) for t in trickle)
for t in trickle: t.close()
checks["trickling heads are closed at the header timeout"] = open_after == 0
print(f"hostile-load: 3. 50 clients trickling a head one byte a second: {open_after} still open after {time.monotonic() - start:.0f} s")
for name, ok in checks.items(): print(f"hostile-load: {'ok  ' if ok else 'FAIL'} {name}")
sys.exit(0 if all(checks.values()) else 1)
PY
