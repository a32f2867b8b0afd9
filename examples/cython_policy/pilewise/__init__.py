"""pilewise: an example burraco policy written twice, as a native policy in Cython
(``pilewise._native:policy``) and as a plain Python function (``pilewise.python:policy``), the
two making the same choices.

>>> import burraco
>>> native = burraco.Policy("pilewise._native:policy")
>>> twin = burraco.Policy("pilewise.python:policy")
"""

__all__: list = []
