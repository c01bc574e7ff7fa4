"""What the GPU will actually run, per kernel: registers, spills, shared memory and the SASS instruction mix.

`safekernels build --emit sass-summary` answers "did the compiler do what I hoped?" without a GPU.  Three
sources, each used when present and each said plainly when absent:

1. **ptxas' own report**: the PTX is assembled again by nvJitLink with `-verbose`, whose info log carries
   ptxas' "Used N registers", stack frame, spill stores/loads, shared and constant memory per function.
2. **the cubin's ELF metadata**, parsed here: the `.nv.info` section's `EIATTR_REGCOUNT` / `EIATTR_FRAME_SIZE`
   attributes (records of format byte, attribute byte, then a 16-bit value or a 16-bit size and payload),
   `EIATTR_REQNTID` from `.nv.info.<kernel>`, the size of `.nv.shared.<kernel>` (static shared memory) and of
   `.text.<kernel>` (16 bytes per SASS instruction slot on sm_70 and newer).  Needs nothing but the bytes.
3. **the instruction mix**, from disassembly by `nvdisasm` or `cuobjdump` when one is on PATH, in
   `$CUDA_HOME/bin`, or from the pip packages `nvidia-cuda-nvdisasm` / `nvidia-cuda-cuobjdump`: global loads
   and stores by width (`LDG.E.128` is a 16-byte vector access), shared-memory traffic, tensor-core `HMMA`,
   FMAs, branches and barriers.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

# .nv.info attribute codes (EIATTR_*) and record formats (EIFMT_*), as cuobjdump -elf names them.
_EIATTR_REQNTID = 0x10
_EIATTR_FRAME_SIZE = 0x11
_EIATTR_MIN_STACK_SIZE = 0x12
_EIATTR_MAX_STACK_SIZE = 0x23
_EIATTR_REGCOUNT = 0x2F
_EIFMT_SVAL = 0x04
_SHT_NOBITS = 8
_SASS_SLOT_BYTES = 16


@dataclass
class ElfKernelInfo:
    name: str
    registers: int | None = None
    frame_bytes: int | None = None
    max_stack_bytes: int | None = None
    static_shared_bytes: int = 0
    instruction_slots: int | None = None
    reqntid: tuple[int, ...] | None = None


@dataclass
class PtxasReport:
    registers: int | None = None
    stack_frame_bytes: int | None = None
    spill_store_bytes: int | None = None
    spill_load_bytes: int | None = None
    shared_bytes: int | None = None
    constant_bytes: int | None = None
    raw: str = ""


@dataclass
class InstructionMix:
    tool: str
    counts: Counter[str] = field(default_factory=Counter)
    total: int = 0


@dataclass
class KernelSummary:
    name: str
    arch: str
    elf: ElfKernelInfo | None
    ptxas: PtxasReport | None
    mix: InstructionMix | None
    unavailable: list[str] = field(default_factory=list)


class ElfFormatError(ValueError):
    """The bytes are not a 64-bit little-endian ELF cubin."""


def _sections(cubin: bytes) -> list[tuple[str, int, int, int, int]]:
    """(name, type, offset, size, link) of every section."""
    if not cubin.startswith(b"\x7fELF") or len(cubin) < 64 or cubin[4] != 2 or cubin[5] != 1:
        raise ElfFormatError("not a 64-bit little-endian ELF file")
    shoff = struct.unpack_from("<Q", cubin, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    raw = []
    for i in range(shnum):
        name, kind, _flags, _addr, offset, size, link = struct.unpack_from("<IIQQQQI", cubin, shoff + i * shentsize)
        raw.append((name, kind, offset, size, link))
    strtab_offset = raw[shstrndx][2]

    def name_at(offset: int) -> str:
        start = strtab_offset + offset
        return cubin[start : cubin.index(b"\0", start)].decode(errors="replace")

    return [(name_at(n), kind, off, size, link) for n, kind, off, size, link in raw]


def _symbol_names(cubin: bytes, sections: list[tuple[str, int, int, int, int]]) -> list[str]:
    for name, _kind, offset, size, link in sections:
        if name == ".symtab":
            strtab = sections[link][2]
            names = []
            for pos in range(offset, offset + size, 24):
                (name_off,) = struct.unpack_from("<I", cubin, pos)
                start = strtab + name_off
                names.append(cubin[start : cubin.index(b"\0", start)].decode(errors="replace"))
            return names
    return []


def _nv_info_records(data: bytes) -> list[tuple[int, int, bytes | int]]:
    """(format, attribute, value) records; SVAL values are bytes, the others a 16-bit int."""
    records: list[tuple[int, int, bytes | int]] = []
    pos = 0
    while pos + 4 <= len(data):
        fmt, attr = data[pos], data[pos + 1]
        (half,) = struct.unpack_from("<H", data, pos + 2)
        pos += 4
        if fmt == _EIFMT_SVAL:
            records.append((fmt, attr, data[pos : pos + half]))
            pos += half
        else:
            records.append((fmt, attr, half))
    return records


def parse_cubin(cubin: bytes) -> dict[str, ElfKernelInfo]:
    """Per-kernel metadata from the cubin's ELF sections, keyed by entry name."""
    sections = _sections(cubin)
    symbols = _symbol_names(cubin, sections)
    kernels: dict[str, ElfKernelInfo] = {}
    for name, _kind, _offset, size, _link in sections:
        if name.startswith(".text."):
            kernel = name[len(".text.") :]
            kernels[kernel] = ElfKernelInfo(kernel, instruction_slots=size // _SASS_SLOT_BYTES)
    for name, kind, offset, size, _link in sections:
        data = cubin[offset : offset + size] if kind != _SHT_NOBITS else b""
        if name.startswith(".nv.shared.") and name[len(".nv.shared.") :] in kernels:
            kernels[name[len(".nv.shared.") :]].static_shared_bytes = size
        elif name == ".nv.info":
            for fmt, attr, value in _nv_info_records(data):
                if fmt != _EIFMT_SVAL or not isinstance(value, bytes) or len(value) < 8:
                    continue
                symbol, amount = struct.unpack_from("<II", value)
                target = kernels.get(symbols[symbol]) if symbol < len(symbols) else None
                if target is None:
                    continue
                if attr == _EIATTR_REGCOUNT:
                    target.registers = amount
                elif attr == _EIATTR_FRAME_SIZE:
                    target.frame_bytes = amount
                elif attr == _EIATTR_MAX_STACK_SIZE:
                    target.max_stack_bytes = amount
                elif attr == _EIATTR_MIN_STACK_SIZE and target.max_stack_bytes is None:
                    target.max_stack_bytes = amount
        elif name.startswith(".nv.info.") and name[len(".nv.info.") :] in kernels:
            for fmt, attr, value in _nv_info_records(data):
                if attr == _EIATTR_REQNTID and fmt == _EIFMT_SVAL and isinstance(value, bytes):
                    kernels[name[len(".nv.info.") :]].reqntid = struct.unpack_from(f"<{len(value) // 4}I", value)
    return kernels


_PTXAS_PATTERNS = {
    "registers": re.compile(r"Used (\d+) registers"),
    "stack_frame_bytes": re.compile(r"(\d+) bytes stack frame"),
    "spill_store_bytes": re.compile(r"(\d+) bytes spill stores"),
    "spill_load_bytes": re.compile(r"(\d+) bytes spill loads"),
    "shared_bytes": re.compile(r"(\d+) bytes smem"),
    "constant_bytes": re.compile(r"(\d+) bytes cmem\[0\]"),
}


#: A line of ptxas' log that starts the section of one function: "Compiling entry function 'k' for 'sm_90'",
#: "Function properties for k" or "Function properties for 'k':".
_SECTION = re.compile(r"(?:Compiling entry function|Function properties for) '?([\w$.]+)'?")


def entry_sections(log: str, entry: str) -> str:
    """The lines of ptxas' log about function `entry` (a module can hold several entries: SIMT kernels carry a
    coarsened twin), or the whole log when it names no function."""
    kept: list[str] = []
    current: str | None = None
    named = False
    for line in log.splitlines():
        header = _SECTION.search(line)
        if header:
            current, named = header.group(1), True
        if current == entry:
            kept.append(line)
    return "\n".join(kept) if named else log


def parse_ptxas_log(log: str, entry: str | None = None) -> PtxasReport:
    """ptxas' figures for `entry` (None: the first function the log reports)."""
    report = PtxasReport(raw=log)
    text = log if entry is None else entry_sections(log, entry)
    for attr, pattern in _PTXAS_PATTERNS.items():
        match = pattern.search(text)
        if match:
            setattr(report, attr, int(match.group(1)))
    return report


def ptxas_report(ptx: str, arch: str, name: str) -> PtxasReport:
    """Assemble `ptx` again with `-verbose` and parse ptxas' report (raises when nvJitLink is missing)."""
    from cuda.bindings import nvjitlink

    data = ptx.encode()
    handle = nvjitlink.create(3, [f"-arch={arch}", "-O3", "-verbose"])
    try:
        nvjitlink.add_data(handle, nvjitlink.InputType.PTX, data, len(data), f"{name}.ptx")
        nvjitlink.complete(handle)
        size = nvjitlink.get_info_log_size(handle)
        buf = bytearray(size)
        nvjitlink.get_info_log(handle, buf)
    finally:
        nvjitlink.destroy(handle)
    return parse_ptxas_log(buf.decode(errors="replace").rstrip("\x00"), name)


def find_disassembler() -> tuple[str, str] | None:
    """(tool name, path) of nvdisasm or cuobjdump, or None."""
    roots = [os.environ.get(v, "") for v in ("CUDA_HOME", "CUDA_PATH")] + ["/usr/local/cuda"]
    for tool in ("nvdisasm", "cuobjdump"):
        found = shutil.which(tool)
        if found:
            return tool, found
        for root in roots:
            candidate = Path(root) / "bin" / tool if root else None
            if candidate is not None and candidate.is_file():
                return tool, str(candidate)
        for path in sys.path:
            hits = sorted(glob.glob(os.path.join(path, "nvidia", "*", "bin", tool)))
            hits += sorted(glob.glob(os.path.join(path, "nvidia", "cuda_*", "bin", tool)))
            if hits:
                return tool, hits[-1]
    return None


_SASS_LINE = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)")


def classify(opcode: str) -> str | None:
    """The mix category of one SASS opcode with modifiers (`LDG.E.128.CONSTANT` -> `LDG.128`)."""
    base, *mods = opcode.split(".")
    if base in ("LDG", "STG"):
        width = next((m for m in mods if m in ("64", "128", "U8", "S8", "U16", "S16")), "32")
        return f"{base}.{width}"
    if base in ("LDS", "STS", "LDSM", "HMMA", "IMMA", "HGMMA", "BAR", "SHFL", "FFMA", "FADD", "FMUL", "DFMA"):
        return base
    if base in ("QGMMA", "UTMALDG", "UTMASTG", "LDGSTS", "SYNCS"):  # fp8 wgmma, TMA, cp.async, mbarrier waits
        return base
    if base.startswith("ATOM") or base == "RED":
        return "ATOM/RED"
    if base in ("BRA", "BRX", "JMP", "RET", "EXIT", "CALL", "BSSY", "BSYNC"):
        return "control"
    if base in ("NOP",):
        return None
    return "other"


def parse_sass(text: str, tool: str) -> InstructionMix:
    mix = InstructionMix(tool)
    for line in text.splitlines():
        match = _SASS_LINE.search(line)
        if not match:
            continue
        category = classify(match.group(1))
        if category is not None:
            mix.counts[category] += 1
            mix.total += 1
    return mix


def disassemble(cubin: bytes) -> InstructionMix | None:
    tool = find_disassembler()
    if tool is None:
        return None
    name, path = tool
    with tempfile.TemporaryDirectory(prefix="sk-sass-") as tmp:
        image = Path(tmp) / "kernel.cubin"
        image.write_bytes(cubin)
        cmd = [path, "-c", str(image)] if name == "nvdisasm" else [path, "-sass", str(image)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        return None
    return parse_sass(proc.stdout, name)


def summarize(name: str, entry: str, arch: str, ptx: str, cubin: bytes) -> KernelSummary:
    """Everything available about one compiled kernel; what is missing is listed in `unavailable`."""
    unavailable: list[str] = []
    elf: ElfKernelInfo | None = None
    try:
        elf = parse_cubin(cubin).get(entry)
        if elf is None:
            unavailable.append(f"ELF metadata (no .text.{entry} section in the cubin)")
    except (ElfFormatError, struct.error, ValueError, IndexError) as exc:
        unavailable.append(f"ELF metadata ({exc})")
    ptxas: PtxasReport | None = None
    try:
        ptxas = ptxas_report(ptx, arch, name)
        if ptxas.registers is None:
            unavailable.append("ptxas report (nvJitLink -verbose printed no function properties)")
    except Exception as exc:
        unavailable.append(f"ptxas report (nvJitLink -verbose failed: {type(exc).__name__})")
    mix: InstructionMix | None = None
    try:
        mix = disassemble(cubin)
    except (OSError, subprocess.SubprocessError):
        mix = None
    if mix is None:
        unavailable.append(
            "instruction mix (needs nvdisasm or cuobjdump: a CUDA toolkit on PATH, or "
            "`pip install nvidia-cuda-nvdisasm`)"
        )
    return KernelSummary(name, arch, elf, ptxas, mix, unavailable)


def _value(*candidates: int | None) -> str:
    for value in candidates:
        if value is not None:
            return str(value)
    return "unavailable"


def format_summary(summary: KernelSummary) -> str:
    elf, ptxas = summary.elf, summary.ptxas
    lines = [f"kernel {summary.name} ({summary.arch})"]
    lines.append(f"  registers/thread  {_value(ptxas.registers if ptxas else None, elf.registers if elf else None)}")
    if ptxas is not None and ptxas.spill_store_bytes is not None:
        lines.append(
            f"  spills            {ptxas.spill_store_bytes} bytes stored, {ptxas.spill_load_bytes} bytes loaded"
        )
    else:
        lines.append("  spills            unavailable (needs the ptxas report)")
    lines.append(
        "  stack frame       "
        + _value(ptxas.stack_frame_bytes if ptxas else None, elf.frame_bytes if elf else None)
        + " bytes"
    )
    shared = _value(ptxas.shared_bytes if ptxas else None, elf.static_shared_bytes if elf else None)
    section = elf.static_shared_bytes if elf is not None else None
    extra = (
        f"; the cubin reserves {section} bytes incl. the system's share" if section and shared != str(section) else ""
    )
    lines.append(f"  shared memory     {shared} bytes static{extra} (dynamic shared memory is set at launch)")
    if ptxas is not None and ptxas.constant_bytes is not None:
        lines.append(f"  constant bank 0   {ptxas.constant_bytes} bytes (kernel parameters)")
    if elf is not None and elf.reqntid is not None:
        lines.append(f"  required block    {tuple(elf.reqntid)} (.reqntid)")
    if elf is not None and elf.instruction_slots is not None:
        lines.append(f"  SASS size         {elf.instruction_slots} instruction slots (incl. padding)")
    if summary.mix is not None:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(summary.mix.counts.items()))
        lines.append(f"  instruction mix   {summary.mix.total} instructions ({summary.mix.tool}): {counts}")
    for what in summary.unavailable:
        lines.append(f"  unavailable       {what}")
    return "\n".join(lines) + "\n"
