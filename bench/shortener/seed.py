#!/usr/bin/env python3
"""Seed a running shortener with N links through the bulk API (1,000 per request) and write their codes,
one per line, to CODES_FILE. Bench tooling only (Python standard library).
usage: seed.py BASE_URL KEY N CODES_FILE"""
import json
import sys
import urllib.request

base, key, total, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
codes = []
batch = 1000
for start in range(0, total, batch):
    items = [{"url": f"https://example.com/articles/{i}/a-typical-slug-of-moderate-length"} for i in range(start, min(total, start + batch))]
    request = urllib.request.Request(base + "/api/links/bulk", data=json.dumps(items).encode(), method="POST",
                                     headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        results = json.load(response)["results"]
    for r in results:
        if r["status"] != 201:
            sys.exit(f"seeding failed: {r}")
        codes.append(r["link"]["code"])
with open(out, "w") as f:
    f.write("\n".join(codes) + "\n")
print(f"seeded {len(codes)} links")
