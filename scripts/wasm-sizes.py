#!/usr/bin/env python3
"""Where a wasm module's bytes are: code by crate and module, the largest functions,
and the data segments (the strings and tables the module carries) by kind.

    python3 scripts/wasm-sizes.py <module.wasm> [--top N]

Reads the module itself (no twiggy needed): the code section's function bodies,
named by the `name` custom section, and the data section's segments. Give it the
module cargo builds before wasm-bindgen and wasm-opt strip the names
(`scripts/size.sh --breakdown` builds it); sizes are before wasm-opt, so the shares
matter more than the absolute numbers.
"""
import collections
import re
import sys

# What the first screen (the default lesson playing, its tour, the side panel's
# first tab) never runs: the tools a learner opens on demand. Matched against the
# "crate::module[::sub]" key the breakdown assigns each function.
ON_DEMAND = {
    "exporter (Java program, Flink code tab)": (
        "engine::export", "checkpoint_lab::flink_code", "checkpoint_lab::components::flink_panel"),
    "Flink statistics reader": ("checkpoint_lab::flink_stats", "checkpoint_lab::components::real_stats_panel"),
    "drill": ("engine::drill", "checkpoint_lab::drill"),
    "scenario editor": ("checkpoint_lab::lessons::editor",),
    "lesson pairs and comparison charts": ("checkpoint_lab::compare", "checkpoint_lab::lessons::pair"),
    "barrier bench": ("engine::bench", "checkpoint_lab::barrier_bench", "checkpoint_lab::components::bench_panel"),
    "phase timeline": ("checkpoint_lab::components::phase_timeline",),
    "glossary": ("checkpoint_lab::lessons::glossary",),
    "QR codes, share encoding, slide export": (
        "qrcode", "checkpoint_lab::share::qr", "checkpoint_lab::components::qr_dialog",
        "checkpoint_lab::components::slide_export"),
    "key-group strip": ("checkpoint_lab::components::key_group_strip",),
    "engine speed probe, soak": ("checkpoint_lab::engine_speed", "engine::soak"),
}
# Modules broken down one level further in the crate table.
SPLIT = ("components", "export", "share", "lessons", "drill", "compare", "world", "view", "scenario")


def leb(b, i):
    r = s = 0
    while True:
        x = b[i]
        i += 1
        r |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return r, i


def sections(b):
    assert b[:4] == b"\0asm", "not a wasm module"
    i = 8
    while i < len(b):
        sid = b[i]
        size, j = leb(b, i + 1)
        yield sid, b[j:j + size], j - i + size
        i = j + size


def parse(path):
    b = open(path, "rb").read()
    imported_funcs = 0
    bodies, names, segments, other = [], {}, [], collections.Counter()
    for sid, s, total in sections(b):
        if sid == 2:  # imports: function imports take the first function indices
            n, i = leb(s, 0)
            for _ in range(n):
                for _ in range(2):
                    ln, i = leb(s, i)
                    i += ln
                kind = s[i]
                i += 1
                if kind == 0:
                    _, i = leb(s, i)
                    imported_funcs += 1
                elif kind == 1:
                    i += 1
                    flags, i = leb(s, i)
                    _, i = leb(s, i)
                    if flags & 1:
                        _, i = leb(s, i)
                elif kind == 2:
                    flags, i = leb(s, i)
                    _, i = leb(s, i)
                    if flags & 1:
                        _, i = leb(s, i)
                elif kind == 3:
                    i += 2
            other["imports"] += total
        elif sid == 10:  # code
            n, i = leb(s, 0)
            for _ in range(n):
                size, j = leb(s, i)
                bodies.append(j - i + size)
                i = j + size
        elif sid == 11:  # data
            n, i = leb(s, 0)
            for _ in range(n):
                flags, i = leb(s, i)
                if flags == 2:
                    _, i = leb(s, i)
                if flags in (0, 2):
                    while s[i] != 0x0B:
                        i += 1
                    i += 1
                size, i = leb(s, i)
                segments.append(s[i:i + size])
                i += size
        elif sid == 0:
            ln, i = leb(s, 0)
            name = s[i:i + ln].decode()
            i += ln
            if name == "name":
                while i < len(s):
                    sub = s[i]
                    size, j = leb(s, i + 1)
                    if sub == 1:
                        n, k = leb(s, j)
                        for _ in range(n):
                            idx, k = leb(s, k)
                            ln, k = leb(s, k)
                            names[idx] = s[k:k + ln].decode("utf-8", "replace")
                            k += ln
                    i = j + size
        else:
            other[{1: "types", 3: "function declarations", 4: "tables", 5: "memory", 6: "globals",
                   7: "exports", 9: "element segments"}.get(sid, f"section {sid}")] += total
    funcs = [(names.get(imported_funcs + k, f"func[{imported_funcs + k}]"), size)
             for k, size in enumerate(bodies)]
    # wasm-bindgen runs its describe functions at build time and removes them.
    funcs = [(n, size) for n, size in funcs if not n.startswith("__wbindgen_describe")]
    return funcs, segments, other


def demangle(name):
    """Rust's mangled names to a readable path (enough to find the crate and module)."""
    if name.startswith("_R"):
        # v0 mangling (the standard library's): the identifiers, each prefixed by its
        # length, after dropping the crate disambiguators (`Cs<base62>_`).
        s, out, i = re.sub(r"Cs[0-9A-Za-z]*_", "C", name[2:]), [], 0
        while i < len(s):
            m = re.match(r"(\d+)_?", s[i:])
            if m and int(m.group(1)) > 0:
                j = i + len(m.group(0))
                out.append(s[j:j + int(m.group(1))])
                i = j + int(m.group(1))
            else:
                i += 1
        return "::".join(out)
    m = re.match(r"_ZN((?:\d+[^\d].*?)+)E(?:\.\d+)?$", name)
    if not m:
        return name
    out, s = [], m.group(1)
    while s and s[0].isdigit():
        d = re.match(r"\d+", s).group(0)
        n = int(d)
        out.append(s[len(d):len(d) + n])
        s = s[len(d) + n:]
    parts = [p for p in out if not re.fullmatch(r"h[0-9a-f]{16}", p)]
    text = "::".join(parts)
    for a, b in (("$LT$", "<"), ("$GT$", ">"), ("$u20$", " "), ("$C$", ","), ("$RF$", "&"),
                 ("$BP$", "*"), ("$u7b$", "{"), ("$u7d$", "}"), ("$u5b$", "["), ("$u5d$", "]"),
                 ("..", "::"), ("$u27$", "'"), ("$u22$", '"'), ("$LP$", "("), ("$RP$", ")")):
        text = text.replace(a, b)
    return text


def key(name):
    name = demangle(name)
    # The first path names the crate whose code it is (generic instantiations land
    # in the crate of the generic: alloc, core, serde); an impl of a trait for one
    # of our types counts as ours, because the page pulls it in for that type.
    paths = re.findall(r"([a-z_][a-z0-9_]*)::([a-z_0-9]+)?(?:::([a-z_0-9]+))?", name.lstrip("<&*( "))
    ours = [p for p in paths if p[0] in ("checkpoint_lab", "checkpoint_engine", "engine")]
    crate, mod, sub = ours[0] if ours else (paths[0] if paths else ("(unnamed)", "", ""))
    if crate == "checkpoint_engine":
        crate = "engine"
    if crate in ("checkpoint_lab", "engine"):
        crate += "::" + (mod or "?")
        if mod in SPLIT and sub and sub != "_":
            crate += "::" + sub
    return crate


def data_kinds(segments):
    """Splits the data segments into runs of text and the rest, and sorts the text."""
    kinds = collections.Counter()
    cjk = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
    for seg in segments:
        text = seg.decode("utf-8", "replace")
        # Runs of printable text of at least 4 characters; the rest is tables,
        # panic locations and other binary data.
        printable = 0
        for run in re.finditer(r"[^\x00-\x08\x0e-\x1f\x7f-\x9f\ufffd]{4,}", text):
            r = run.group(0)
            n = len(r.encode())
            printable += n
            if cjk.search(r):
                kinds["text with Chinese characters"] += n
            elif re.search(r"\.rs\b|/rustc/|\.cargo/registry", r):
                kinds["source paths (panic locations)"] += n
            else:
                kinds["other text (messages, field names, English wording, CSS, keys)"] += n
        kinds["binary (tables, pointers, numbers)"] += len(seg) - printable
    return kinds


def main():
    path = sys.argv[1]
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 30
    funcs, segments, other = parse(path)
    code = sum(s for _, s in funcs)
    data = sum(len(s) for s in segments)
    total = code + data + sum(other.values())
    pct = lambda n, of=total: f"{100 * n / of:5.1f} %"
    print(f"{path}: {total} bytes in code, data and tables (custom sections not counted)")
    print(f"  code  {code:9d} {pct(code)}  ({len(funcs)} functions)")
    print(f"  data  {data:9d} {pct(data)}  ({len(segments)} segments)")
    for k, v in other.most_common():
        print(f"  {k:20} {v:9d} {pct(v)}")
    by = collections.Counter()
    for name, size in funcs:
        by[key(name)] += size
    print(f"\ncode by crate and module (bytes, share of the code):")
    for k, v in by.most_common(60):
        print(f"  {v:9d} {pct(v, code)}  {k}")
    print(f"\nlargest functions:")
    for name, size in sorted(funcs, key=lambda f: -f[1])[:top]:
        print(f"  {size:9d}  {demangle(name)[:150]}")
    print(f"\ndata by kind (bytes, share of the data):")
    for k, v in data_kinds(segments).most_common():
        print(f"  {v:9d} {pct(v, data)}  {k}")
    print(f"\ncode the first screen does not run (loaded on demand in a split page):")
    later = 0
    for what, prefixes in ON_DEMAND.items():
        n = sum(v for k, v in by.items() if k.startswith(prefixes))
        later += n
        print(f"  {n:9d} {pct(n, code)}  {what}")
    print(f"  {later:9d} {pct(later, code)}  together; the first screen's code is the other "
          f"{100 - 100 * later / code:.1f} % (its share of the generic code of core, alloc, serde "
          "and yew counted as staying)")


if __name__ == "__main__":
    main()
