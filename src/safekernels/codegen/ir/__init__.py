"""The typed kernel IR: the one data structure between the front end (Python AST) and lowering (LLVM IR).

Every node carries its resolved type and the source position it came from, so lowering never has to guess and
never has to report a user error: anything a user can get wrong is rejected in the front end with an SK code.
"""
