#!/usr/bin/env python3
"""Fails on an engine include that reaches upward or sideways out of the layer order.

The order is AILE_ENGINE_LAYERS in engine/CMakeLists.txt, from the bottom up: a file in folder F
may include headers of F and of the folders listed before F, nothing else. A list that is an
order has no cycle, so this also fails on any folder cycle. A folder of engine/ missing from the
list fails too (a new folder takes its place in the order when it is made).

usage: scripts/check-layers.py [PROJECT_ROOT]     (CTest runs it as `check_layers`)
Prints one line per offending include (file:line: what reaches where) and exits 1 on any.
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
engine = os.path.join(root, "engine")

cmake = open(os.path.join(engine, "CMakeLists.txt"), encoding="utf-8").read()
found = re.search(r"set\(AILE_ENGINE_LAYERS\s+(.*?)\)", cmake, re.S)
if not found:
    sys.exit("check-layers: no set(AILE_ENGINE_LAYERS ...) in engine/CMakeLists.txt")
order = [line.split("#")[0].strip() for line in found.group(1).splitlines()]
order = [word for line in order for word in line.split()]
rank = {folder: i for i, folder in enumerate(order)}

problems = []
folders = sorted(d for d in os.listdir(engine) if os.path.isdir(os.path.join(engine, d)))
for folder in folders:
    if folder not in rank:
        problems.append(f"engine/{folder}/: not in AILE_ENGINE_LAYERS (engine/CMakeLists.txt); give it its place in the order")

include = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
for folder in folders:
    for dirpath, _, names in os.walk(os.path.join(engine, folder)):
        for name in sorted(names):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    m = include.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    if "/" not in target:
                        # A bare name is the same folder's header; one from elsewhere hides an edge.
                        if not os.path.exists(os.path.join(dirpath, target)):
                            problems.append(f"{rel}:{number}: \"{target}\" is not in engine/{folder}/; include it by its folder")
                        continue
                    to = target.split("/")[0]
                    if to == folder or to not in folders:
                        continue
                    if to not in rank or folder not in rank:
                        continue   # reported above
                    if rank[to] > rank[folder]:
                        problems.append(f"{rel}:{number}: {folder} includes {target}, but {to} is above {folder} in AILE_ENGINE_LAYERS")

for p in problems:
    print(p)
print(f"check-layers: {len(folders)} folders, {len(problems)} problem(s); order (bottom up): {' '.join(order)}")
sys.exit(1 if problems else 0)
