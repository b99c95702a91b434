"""The pages of the book's table of contents, in order (the root page, then every part's chapters and sections),
for the tests that check every page."""
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def toc_files():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]
    for part in toc.get("parts", []):
        for ch in part.get("chapters", []):
            files.append(ch["file"])
            files.extend(s["file"] for s in ch.get("sections", []))
    return files
