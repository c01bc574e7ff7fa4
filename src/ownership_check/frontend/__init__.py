"""The libcst front end: find safekernels code, index kernels across a project, lower functions to the flow
IR.

Pipeline, cheapest first:  `prescan` (substring test, then `ast`: which files can involve safekernels at all
and what they import) -> `project_index` (kernels, their parameter modes, import tables and re-exports of all
files of one run) -> `lowering` (libcst, only for the relevant files) -> `ownership_check.core`.
"""
