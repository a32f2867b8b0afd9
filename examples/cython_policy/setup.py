"""Builds pilewise._native against the burraco installed in the environment.

burraco.get_include() is the folder that holds burraco/policy.h and burraco/policy.pxd: it goes on
the C include path (for policy.h) and on Cython's include path (for ``cimport burraco.policy``).
"""

import burraco
from Cython.Build import cythonize
from setuptools import Extension, setup

include = burraco.get_include()

setup(
    ext_modules=cythonize(
        [Extension("pilewise._native", ["pilewise/_native.pyx"], include_dirs=[include])],
        include_path=[include],
        compiler_directives={"language_level": 3},
    )
)
