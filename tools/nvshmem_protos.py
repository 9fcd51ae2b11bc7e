#!/usr/bin/env python3
"""Generates tests/gpu/nvshmem_protos.cpp: a compile-time check that every function NVSHMEM's public
headers declare for host code has the same C++ type in symmem's <nvshmem.h>/<nvshmemx.h>.

A program written to NVSHMEM calls its functions with NVSHMEM's argument types and uses what they
return as NVSHMEM declares it; a name that exists with another type (a third parameter, an int
where NVSHMEM returns void, a pointer to const where NVSHMEM's is not) stops such a program from
compiling, or changes what it means. docs/nvshmem-names.md lists which names exist; this checks
their types.

How: NVSHMEM's headers are preprocessed twice, as a host C++ file (g++ -E, __CUDACC__ undefined,
__device__ kept visible as an attribute) and as the host pass of a CUDA file (nvcc -E, where
device-only functions carry __attribute__((device))). Every top-level declaration or definition
of an nvshmem_/nvshmemx_ function without a device attribute (or with a host one: __host__
__device__) is kept with its return and parameter types as NVSHMEM spells them (typedef names
kept, parameter names dropped); the typed families come out expanded over NVSHMEM's own type
lists. The generated file has one line per function:

    SYMMEM_PROTO(nvshmem_team_destroy, void (*)(nvshmem_team_t))

that is static_assert(std::is_same_v<decltype(&name), TYPE>): the name must exist for host code,
be one function (not overloaded, not a template) and have exactly that type (a top-level const on
a parameter is not part of it; a pointer to const is). The file needs neither NVSHMEM nor a GPU:
the ctest test nvshmem_prototypes compiles it with the C++ compiler, and tests/gpu/
nvshmem_compat_test.cu includes it (nvcc).

Left out, each named in the generated file:
  - functions NVSHMEM declares for host code but defines for the host nowhere, neither inline in
    its headers nor in its library's sources (src/, outside src/include): the warp/block
    reductions (declared __host__ __device__, defined __device__ only), nvshmemx_signal_op,
    nvshmem_<T>_alltoalls and nvshmem_realloc (defined nowhere). A host call of one does not link
    with NVSHMEM either. Without the library sources nothing is left out this way.
  - SKIP: names symmem provides only as a compile-time message (docs/nvshmem-names.md), a template
    stub whose address cannot be taken.
PENDING names functions whose symmem type is known to differ and is being changed: their line
asserts that the types still differ, so the check passes now and fails, saying so, once the type
is NVSHMEM's (then remove the name here and run the script again).

Usage, with NVSHMEM's sources (e.g. a tag of its git repository):
    git -C NVSHMEM_REPO archive v3.4.5-0 CMakeLists.txt src | tar -x -C /tmp/nv
    tools/nvshmem_protos.py /tmp/nv                 # writes tests/gpu/nvshmem_protos.cpp
    tools/nvshmem_protos.py /tmp/nv --verify        # and compiles it against NVSHMEM's own headers
    tools/nvshmem_protos.py /tmp/nv --report build  # and lists symmem's mismatches (build: a
                                                    # configured build folder, for symmem/version.h)
    tools/nvshmem_protos.py /tmp/nv --list -o /dev/null   # every function, its type and class
The argument may also be an installed NVSHMEM's include directory (give --version then).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Types known to differ and being changed; see above. None at present.
PENDING = set()

# Provided as a compile-time message only (symmem/detail/nvshmem_more.h). None of these is a host
# function at present: the other such names (nvshmemx_put6_signal_*) are device functions, not in
# this check.
SKIP = {}

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "tests", "gpu", "nvshmem_protos.cpp")

NAME_RE = re.compile(r"^nvshmemx?_\w+$")
TOKEN_RE = re.compile(
    r"""\s+|(?P<tok>[A-Za-z_]\w*|\d[\w.]*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|::|->|\.\.\.|<<=|>>=|&&|\|\||[-+*/%&|^!=<>]=|\+\+|--|.)""",
    re.S,
)
# Words that say how a function is stored or compiled, not what its type is.
SPECIFIERS = {"static", "inline", "extern", "__inline__", "__inline", "__forceinline__", "constexpr",
              "__host__", "__device__", "__global__", "__noinline__"}
BUILTIN = {"void", "bool", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
           "const", "volatile", "struct", "enum", "union", "__int128", "wchar_t", "char16_t", "char32_t"}


def tokenize_lines(text):
    """Yields (file, token) for the preprocessed text, following its line markers."""
    cur = ""
    for line in text.split("\n"):
        s = line.lstrip()
        if s.startswith("#"):
            m = re.match(r'#\s*(?:line\s+)?\d+\s+"([^"]*)"', s)
            if m:
                cur = m.group(1)
            continue  # line markers, #pragma
        for m in TOKEN_RE.finditer(line):
            t = m.group("tok")
            if t is not None:
                yield cur, t


class Decl:
    def __init__(self, name, ret, params, attrs, where):
        self.name, self.ret, self.params, self.attrs, self.where = name, ret, params, attrs, where
        self.body = False  # a definition (an inline function of the header)
        self.noexcept = False  # part of the type in C++17

    def ctype(self):
        return "%s (*)(%s)%s" % (self.ret, ", ".join(self.params) if self.params else "void",
                                 " noexcept" if self.noexcept else "")


def past_parens(toks, i):
    """The index just past the ')' that closes the '(' at toks[i] (len(toks) when none does)."""
    depth, j = 0, i
    while j < len(toks):
        depth += toks[j] == "("
        depth -= toks[j] == ")"
        j += 1
        if depth == 0:
            break
    return j


def strip_attributes(toks):
    """Removes __attribute__((...)), __declspec(...) and [[...]]; returns (tokens, attribute text)."""
    out, attrs, i = [], [], 0
    while i < len(toks):
        t = toks[i]
        if t in ("__attribute__", "__declspec", "__location__") and i + 1 < len(toks) and toks[i + 1] == "(":
            j = past_parens(toks, i + 1)
            attrs.append("".join(toks[i:j]))
            i = j
            continue
        if t == "[" and i + 1 < len(toks) and toks[i + 1] == "[":
            j = i + 2
            while j + 1 < len(toks) and not (toks[j] == "]" and toks[j + 1] == "]"):
                j += 1
            attrs.append("".join(toks[i:j + 2]))
            i = j + 2
            continue
        out.append(t)
        i += 1
    return out, " ".join(attrs)


def split_params(toks):
    parts, depth, cur = [], 0, []
    for t in toks:
        if t in ("(", "[", "{", "<"):
            depth += 1
        elif t in (")", "]", "}", ">"):
            depth -= 1
        if t == "," and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        parts.append(cur)
    return parts


def join(toks):
    s = " ".join(toks)
    s = s.replace(" :: ", "::").replace(":: ", "::")
    while "* *" in s:
        s = s.replace("* *", "**")
    return s


def param_type(toks):
    """The type of one parameter, its name (if any) dropped."""
    if "=" in toks:  # a default argument
        toks = toks[:toks.index("=")]
    # A function pointer: R (*name)(args) -> R (*)(args)
    if "(" in toks:
        i = toks.index("(")
        if i + 1 < len(toks) and toks[i + 1] in ("*", "&"):
            j = i + 2
            while j < len(toks) and toks[j] in ("const", "volatile"):
                j += 1
            if j + 1 < len(toks) and re.match(r"^[A-Za-z_]\w*$", toks[j]) and toks[j + 1] == ")":
                toks = toks[:j] + toks[j + 1:]
        return join(toks)
    suffix = []
    while toks and toks[-1] == "]":  # T name[N] -> T *
        toks = toks[:len(toks) - 1 - toks[::-1].index("[")]
        suffix = ["*"]
    last = toks[-1]
    rest = toks[:-1]
    if (re.match(r"^[A-Za-z_]\w*$", last) and last not in BUILTIN
            and any(t not in ("const", "volatile") for t in rest)
            and not (rest and rest[-1] in ("struct", "enum", "union"))):
        toks = rest
    return join(toks + suffix)


def parse(text, pass_name):
    """Top-level functions named nvshmem_/nvshmemx_ in the preprocessed text."""
    toks = list(tokenize_lines(text))
    decls = []
    i, n = 0, len(toks)
    cur, start_file = [], ""

    def skip_braces(k):  # toks[k] == '{'; returns index after the matching '}'
        depth = 0
        while k < n:
            t = toks[k][1]
            depth += t == "{"
            depth -= t == "}"
            k += 1
            if depth == 0:
                return k
        return k

    def finish(decl_toks, where, body=False):
        d = function_of(decl_toks, where, pass_name)
        if d is not None:
            d.body = body
            decls.append(d)

    while i < n:
        f, t = toks[i]
        if not cur:
            start_file = f
        if t == ";":
            finish(cur, start_file)
            cur = []
            i += 1
        elif t == "}":  # the end of an extern "C" block
            cur = []
            i += 1
        elif t == "{":
            if len(cur) == 2 and cur[0] == "extern" and cur[1] in ('"C"', '"C++"'):
                cur = []  # an extern "C" block: its declarations are top-level ones
                i += 1
            elif cur and "namespace" in cur[:2]:
                i = skip_braces(i)  # C++ namespaces (the tile API): not C functions
                cur = []
            elif looks_like_function(cur):
                finish(cur, start_file, True)  # a definition: its body is skipped
                i = skip_braces(i)
                cur = []
            else:
                i = skip_braces(i)  # struct/enum bodies, initializers: keep collecting up to ';'
                cur.append("{}")
        else:
            cur.append(t)
            i += 1
    return decls


def looks_like_function(cur):
    toks, _ = strip_attributes(cur)
    while toks and toks[-1] in ("const", "noexcept", "override", "final"):
        toks = toks[:-1]
    return bool(toks) and toks[-1] == ")" and "=" not in toks


def function_of(cur, where, pass_name):
    if not cur or cur[0] in ("typedef", "using", "template", "friend", "static_assert"):
        return None
    if "template" in cur:
        return None
    toks, attrs = strip_attributes(cur)
    if toks[:2] == ["extern", '"C"']:
        toks = toks[2:]
    # The declarator name: an nvshmem identifier followed by '(' at depth 0.
    depth = 0
    for k, t in enumerate(toks):
        if t == "(":
            if depth == 0 and k > 0 and NAME_RE.match(toks[k - 1]) and (k < 2 or toks[k - 2] not in ("(", "::", ".", "->")):
                break
            depth += 1
        elif t == ")":
            depth -= 1
    else:
        return None
    name = toks[k - 1]
    ret = [x for x in toks[:k - 1] if x not in SPECIFIERS]
    if not ret or "=" in ret or "," in ret:
        return None
    # The parameter list.
    j = past_parens(toks, k)
    inner = toks[k + 1:j - 1]
    tail = toks[j:]
    if tail and tail[0] == "(":
        return None  # a function returning a function pointer: not in NVSHMEM's C API
    params = [param_type(p) for p in split_params(inner)]
    if params == ["void"]:
        params = []
    marks = " ".join(x for x in cur if x in ("__host__", "__device__", "__global__"))
    d = Decl(name, join(ret), params, attrs + " " + marks, where + " (" + pass_name + ")")
    d.noexcept = "noexcept" in tail or tail[:3] == ["throw", "(", ")"]
    return d


def host_callable(d):
    a = d.attrs.replace(" ", "")
    device = "device" in re.findall(r"__attribute__\(\((\w+)\)\)", a) or "__device__" in a or "__global__" in a
    host = "host" in re.findall(r"__attribute__\(\((\w+)\)\)", a) or "__host__" in a
    return host or not device


def preprocess(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("nvshmem_protos: %s failed:\n%s" % (" ".join(cmd), r.stderr[-4000:]))
    return r.stdout


def nvshmem_include(src, tmp, version):
    """NVSHMEM's include directory, with its two configured headers where only the .in files are
    there (a source tree), and its version."""
    inc = os.path.join(src, "src", "include") if os.path.isdir(os.path.join(src, "src", "include")) else src
    if not os.path.exists(os.path.join(inc, "nvshmem.h")):
        sys.exit("nvshmem_protos: no nvshmem.h in %s" % inc)
    if version is None:
        cm = os.path.join(src, "CMakeLists.txt")
        if os.path.exists(cm):
            m = re.search(r"project\s*\(\s*NVSHMEM[^)]*?VERSION\s+(\d+)\.(\d+)\.(\d+)", open(cm).read(), re.S)
            if m:
                version = "%s.%s.%s" % m.groups()
        vh = os.path.join(inc, "non_abi", "nvshmem_version.h")
        if version is None and os.path.exists(vh):
            v = dict(re.findall(r"#define NVSHMEM_VENDOR_(MAJOR|MINOR|PATCH)_VERSION (\d+)", open(vh).read()))
            if len(v) == 3:
                version = "%s.%s.%s" % (v["MAJOR"], v["MINOR"], v["PATCH"])
    if version is None:
        sys.exit("nvshmem_protos: cannot tell NVSHMEM's version; give --version")
    overlay = os.path.join(tmp, "overlay")
    os.makedirs(os.path.join(overlay, "non_abi"))
    maj, mnr, pat = version.split(".")
    for h in ("nvshmem_build_options.h", "nvshmem_version.h"):
        if os.path.exists(os.path.join(inc, "non_abi", h)):
            continue
        text = open(os.path.join(inc, "non_abi", h + ".in")).read()
        text = re.sub(r"^#cmakedefine .*$", "", text, flags=re.M)  # every build option off
        text = (text.replace("@PROJECT_VERSION_MAJOR@", maj).replace("@PROJECT_VERSION_MINOR@", mnr)
                .replace("@PROJECT_VERSION_PATCH@", pat))
        text = re.sub(r"@\w+@", "0", text)
        open(os.path.join(overlay, "non_abi", h), "w").write(text)
    return inc, overlay, version


def cuda_include(nvcc):
    base = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    inc = os.path.join(base, "include")
    dirs = [inc]
    if os.path.isdir(os.path.join(inc, "cccl")):
        dirs.append(os.path.join(inc, "cccl"))  # CUDA 13: libcu++ (cuda/std/...) lives here
    return dirs


def collect(inc, overlay, cxx, nvcc, tmp):
    """{name: Decl} of the host-callable functions, and the names NVSHMEM's headers define for
    the host (inline functions)."""
    main = os.path.join(tmp, "all.cpp")
    open(main, "w").write("#include <nvshmem.h>\n#include <nvshmemx.h>\n")
    incs = ["-I", overlay, "-I", inc]
    # The C++ compiler sees __device__ as nothing (cuda_runtime.h): mark it as nvcc does, so that
    # NVSHMEM's device-only declarations outside #ifdef __CUDACC__ are told apart.
    marks = ["-D__device__=__attribute__((device))", "-D__host__=__attribute__((host))",
             "-D__global__=__attribute__((global))"]
    host = preprocess([cxx, "-std=c++17", "-E"] + marks + incs + sum((["-I", d] for d in cuda_include(nvcc)), []) + [main])
    cuda = preprocess([nvcc, "-std=c++17", "-E", "-x", "cu"] + incs + [main])
    found, inline = {}, set()
    conflicts = []
    for text, pname in ((host, "g++"), (cuda, "nvcc host pass")):
        for d in parse(text, pname):
            if not os.path.realpath(d.where.split(" (")[0]).startswith(os.path.realpath(inc)):
                continue
            if not host_callable(d):
                continue
            if d.body:
                inline.add(d.name)
            if d.name in found:
                if found[d.name].ctype() != d.ctype():
                    conflicts.append((found[d.name], d))
                continue
            found[d.name] = d
    for a, b in conflicts:
        print("nvshmem_protos: warning: %s declared as %s (%s) and %s (%s); the first is checked"
              % (a.name, a.ctype(), a.where, b.ctype(), b.where), file=sys.stderr)
    return found, inline


def library_names(src):
    """Patterns of the nvshmem_/nvshmemx_ names NVSHMEM's library sources (outside src/include)
    name, with token pasting (nvshmem_##TYPENAME##_atomic_add) as \\w+; None without sources."""
    top = os.path.join(src, "src")
    if not os.path.isdir(os.path.join(top, "host")):
        return None
    pats = set()
    for dirpath, dirs, files in os.walk(top):
        if os.path.relpath(dirpath, top).split(os.sep)[0] == "include":
            dirs[:] = []
            continue
        for f in files:
            if not f.endswith((".c", ".cpp", ".cu", ".h", ".hpp", ".cuh")):
                continue
            text = open(os.path.join(dirpath, f), errors="replace").read()
            for m in re.finditer(r"\b(nvshmemx?_[\w#]*)\s*\(", text):
                parts = m.group(1).split("##")
                rx = re.escape(parts[0]) + "".join(re.escape(x) if x.startswith("_") or not x else r"\w+" for x in parts[1:])
                pats.add(rx)
    return re.compile("^(?:%s)$" % "|".join(sorted(pats)))


HEADER = """\
// Generated by tools/nvshmem_protos.py from NVSHMEM {version}'s public headers; do not edit (run
// the script again). Each function NVSHMEM declares for host code ({count} here: host functions and
// __host__ __device__ ones, the typed families expanded over NVSHMEM's type lists) must have
// exactly NVSHMEM's type in symmem's <nvshmem.h>/<nvshmemx.h>: a program written to NVSHMEM calls
// it with NVSHMEM's argument types and uses what it returns as NVSHMEM declares it. The ctest
// test nvshmem_prototypes compiles this file as a program's .cpp file (the C++ compiler), and
// nvshmem_compat_test.cu includes it (nvcc); neither NVSHMEM nor a GPU is needed.
#include <nvshmem.h>
#include <nvshmemx.h>

#include <type_traits>

#define SYMMEM_PROTO(name, ...)                                                                  \\
  static_assert(std::is_same_v<decltype(&name), __VA_ARGS__>,                                    \\
                #name ": symmem's type is not NVSHMEM {version}'s " #__VA_ARGS__);
#if defined(SYMMEM_PROTOS_NVSHMEM)
// Compiled against NVSHMEM's own headers (tools/nvshmem_protos.py --verify): every line holds.
#define SYMMEM_PROTO_PENDING SYMMEM_PROTO
#else
// A type being changed (PENDING in tools/nvshmem_protos.py): still different from NVSHMEM's.
#define SYMMEM_PROTO_PENDING(name, ...)                                                          \\
  static_assert(!std::is_same_v<decltype(&name), __VA_ARGS__>,                                   \\
                #name " now has NVSHMEM's type: remove it from PENDING in tools/nvshmem_protos.py " \\
                "and run the script again");
#endif

"""


def classify(found, inline, libpat):
    """(checked, skipped, device_only) lists of names."""
    names = sorted(found)
    device_only = [x for x in names if libpat is not None and x not in inline and not libpat.match(x)]
    skipped = [x for x in names if x in SKIP and x not in device_only]
    checked = [x for x in names if x not in SKIP and x not in device_only]
    return checked, skipped, device_only


def generate(found, checked, skipped, device_only, version):
    out = [HEADER.format(version=version, count=len(checked))]
    if skipped:
        out.append("// Not checked: provided only as a compile-time message (docs/nvshmem-names.md):\n")
        for x in skipped:
            out.append("//   %s: %s; NVSHMEM: %s\n" % (x, SKIP[x], found[x].ctype()))
        out.append("\n")
    if device_only:
        out.append("// Not checked (%d): declared by NVSHMEM's headers for host code too, but neither they nor its\n"
                   "// library define them for the host (their definitions are __device__ ones, or none), so a\n"
                   "// host call does not link with NVSHMEM either:\n" % len(device_only))
        line = "//  "
        for x in device_only:
            if len(line) + 1 + len(x) > 100:
                out.append(line + "\n")
                line = "//  "
            line += " " + x
        out.append(line + "\n\n")
    for x in checked:
        macro = "SYMMEM_PROTO_PENDING" if x in PENDING else "SYMMEM_PROTO"
        out.append("%s(%s, %s)\n" % (macro, x, found[x].ctype()))
    return "".join(out)


def compile_check(cxx, out, incs, defines, nvcc):
    cmd = ([cxx, "-std=c++17", "-fsyntax-only", "-fmax-errors=0"] + defines + incs
           + sum((["-I", d] for d in cuda_include(nvcc)), []) + [out])
    return subprocess.run(cmd, capture_output=True, text=True)


def symmem_types(names, cxx, nvcc, build, tmp):
    """symmem's types of the names, as the compiler writes them (typedefs resolved)."""
    if not names:
        return {}
    f = os.path.join(tmp, "show.cpp")
    with open(f, "w") as out:
        out.write("#include <nvshmem.h>\n#include <nvshmemx.h>\ntemplate <typename T> struct symmem_show;\n")
        for k, x in enumerate(names):
            out.write("symmem_show<decltype(&%s)> v%d;\n" % (x, k))
    r = compile_check(cxx, f, ["-I", os.path.join(ROOT, "include"), "-I", os.path.join(build, "include")], [], nvcc)
    types = {}
    for m in re.finditer(r"symmem_show<(.*)> v(\d+)", r.stderr):
        types.setdefault(names[int(m.group(2))], m.group(1))
    return types


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("nvshmem", help="NVSHMEM's source tree (with src/include) or include directory")
    ap.add_argument("-o", "--output", default=DEFAULT_OUT)
    ap.add_argument("--version", help="NVSHMEM's version (read from its CMakeLists.txt otherwise)")
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--verify", action="store_true", help="compile the output against NVSHMEM's headers")
    ap.add_argument("--report", metavar="BUILD", help="list mismatches against symmem's headers")
    ap.add_argument("--list", action="store_true", help="print every function and its type")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        inc, overlay, version = nvshmem_include(a.nvshmem, tmp, a.version)
        found, inline = collect(inc, overlay, a.cxx, a.nvcc, tmp)
        libpat = library_names(a.nvshmem)
        if libpat is None:
            print("nvshmem_protos: warning: no NVSHMEM library sources (src/host) beside the headers: "
                  "every declared function is checked", file=sys.stderr)
        checked, skipped, device_only = classify(found, inline, libpat)
        if a.list:
            for x in sorted(found):
                tag = "device-only" if x in device_only else "skipped" if x in skipped else \
                      "pending" if x in PENDING else "checked"
                print("%-11s %s %s" % (tag, x, found[x].ctype()))
        with open(a.output, "w") as f:
            f.write(generate(found, checked, skipped, device_only, version))
        print("nvshmem_protos: NVSHMEM %s declares %d functions for host code: %d checked (%d of them pending), "
              "%d compile-time messages, %d without a host definition -> %s"
              % (version, len(found), len(checked), len(PENDING & set(checked)), len(skipped), len(device_only),
                 os.path.relpath(a.output)))
        status = 0
        if a.verify:
            r = compile_check(a.cxx, a.output, ["-I", overlay, "-I", inc], ["-DSYMMEM_PROTOS_NVSHMEM"], a.nvcc)
            print("nvshmem_protos: against NVSHMEM's own headers: %s"
                  % ("every type holds" if r.returncode == 0 else "FAILED"))
            if r.returncode != 0:
                print(r.stderr[-8000:])
                status = 1
        if a.report:
            r = compile_check(a.cxx, a.output, ["-I", os.path.join(ROOT, "include"), "-I",
                                                os.path.join(a.report, "include")], [], a.nvcc)
            bad = re.findall(r"static assertion failed:? (?:with \")?(\w+): symmem's type is not NVSHMEM [\d.]+'s ([^\n\"]*)",
                             r.stderr)
            pending = sorted(PENDING & set(checked))
            theirs = symmem_types([x for x, _ in bad] + pending, a.cxx, a.nvcc, a.report, tmp)
            for name, nv in bad:
                print("MISMATCH %s\n  NVSHMEM: %s\n  symmem:  %s" % (name, nv, theirs.get(name, "?")))
            for name in pending:
                print("PENDING %s\n  NVSHMEM: %s\n  symmem:  %s" % (name, found[name].ctype(), theirs.get(name, "?")))
            for line in r.stderr.split("\n"):
                if "error:" in line and "static assertion failed" not in line:
                    print("ERROR", line)
            print("nvshmem_protos: %d mismatches" % len(bad))
            status = status or (1 if r.returncode else 0)
        return status


if __name__ == "__main__":
    sys.exit(main())
