"""Builds the native policies of tests/test_native_policy.py against the installed burraco:
``python setup.py build_ext --inplace`` (the test does it in a temporary folder)."""

import burraco
from Cython.Build import cythonize
from setuptools import Extension, setup

include = burraco.get_include()
setup(
    name="burraco-test-probes",
    ext_modules=cythonize([Extension("probes", ["probes.pyx"], include_dirs=[include])],
                          include_path=[include], language_level=3)
    + [Extension("cpp_probe", ["cpp_probe.cpp"], include_dirs=[include],
                 extra_compile_args=["-std=c++17"], language="c++"),
       Extension("snoop", ["snoop.c"], include_dirs=[include])],
)
