"""Python source lines in the PTX: `DILocation`s on every instruction, emitted as `.loc` directives.

The module gets one `DICompileUnit` with `emissionKind: DebugDirectivesOnly` (what clang's
`-gline-directives-only` uses for NVPTX): the backend writes `.file` / `.loc` and no DWARF sections, and the
`.target` line stays without `, debug`, so ptxas optimizes as usual (the `-lineinfo` of nvcc).  Nsight Compute,
compute-sanitizer and cuobjdump then attribute SASS to the kernel's Python file and line.

Each lowered function gets a `DISubprogram` in its own file (helpers may live in other modules); every
statement sets the builder's current location, which llvmlite attaches to each instruction it creates.
"""

from __future__ import annotations

import os

from llvmlite import ir

_I32 = ir.IntType(32)


class LineInfo:
    """Debug-location metadata of one LLVM module."""

    def __init__(self, module: ir.Module) -> None:
        self.module = module
        self.files: dict[str, ir.DIValue] = {}
        self.unit: ir.DIValue | None = None
        flags = module.add_named_metadata("llvm.module.flags")
        flags.add(module.add_metadata([_I32(2), "Debug Info Version", _I32(3)]))
        flags.add(module.add_metadata([_I32(2), "Dwarf Version", _I32(4)]))

    def file(self, path: str) -> ir.DIValue:
        if path not in self.files:
            directory, name = os.path.split(os.path.abspath(path)) if path else ("", "<unknown>")
            self.files[path] = self.module.add_debug_info("DIFile", {"filename": name, "directory": directory})
            if self.unit is None:
                self.unit = self.module.add_debug_info(
                    "DICompileUnit",
                    {
                        "language": ir.DIToken("DW_LANG_Python"),
                        "file": self.files[path],
                        "producer": "safekernels",
                        "isOptimized": True,
                        "runtimeVersion": 0,
                        "emissionKind": ir.DIToken("DebugDirectivesOnly"),
                    },
                    is_distinct=True,
                )
                self.module.add_named_metadata("llvm.dbg.cu", self.unit)
        return self.files[path]

    def subprogram(self, fn: ir.Function, path: str, line: int) -> ir.DIValue:
        """Attach a `DISubprogram` for `fn` (defined at path:line) and return it as the scope of its lines."""
        file = self.file(path)
        subroutine = self.module.add_debug_info("DISubroutineType", {"types": self.module.add_metadata([])})
        sp = self.module.add_debug_info(
            "DISubprogram",
            {
                "name": fn.name,
                "file": file,
                "scope": file,
                "line": max(line, 0),
                "type": subroutine,
                "scopeLine": max(line, 0),
                "isLocal": False,
                "isDefinition": True,
                "unit": self.unit,
            },
            is_distinct=True,
        )
        fn.set_metadata("dbg", sp)
        return sp

    def location(self, line: int, column: int, scope: ir.DIValue) -> ir.DIValue:
        return self.module.add_debug_info("DILocation", {"line": line, "column": column, "scope": scope})


class FunctionLines:
    """Line info for a lowering that walks ops carrying file lines (the tile lowering): `start(fn)` once the
    function exists (it sets up the module's debug metadata), then `at(line)` for each op's location."""

    def __init__(self, path: str, def_line: int) -> None:
        self.path = path
        self.def_line = def_line
        self.info: LineInfo | None = None
        self.scope: ir.DIValue | None = None

    def start(self, fn: ir.Function) -> None:
        self.info = LineInfo(fn.module)
        self.scope = self.info.subprogram(fn, self.path, self.def_line)

    def at(self, line: int) -> ir.DIValue | None:
        if self.info is None or self.scope is None or line <= 0:
            return None
        return self.info.location(line, 0, self.scope)
