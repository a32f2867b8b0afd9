"""Reinforcement-learning environments over the engine (docs/rl.md).

* :mod:`burraco.envs.pettingzoo`: a PettingZoo AEC environment, one agent per seat
  (``player_0`` .. ``player_{n-1}``), as PettingZoo's classic card games are.
* :mod:`burraco.envs.gymnasium`: a Gymnasium single-agent environment, one seat against built-in
  or given policies; importing it registers ``burraco/Italian2p-v0`` and one id per preset.
* :mod:`burraco.envs.vector`: a Gymnasium vector environment of that one, stepped in C++ without
  the GIL (``gymnasium.make_vec`` of those ids makes it).
* :mod:`burraco.envs.openspiel`: importing it registers the OpenSpiel game ``python_burraco``.

They need the ``rl`` extra (``pip install 'burraco[rl]'``); this package itself imports none of
the libraries, and ``import burraco`` never imports this package.
"""

__all__: list[str] = []
