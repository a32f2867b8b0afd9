"""pilewise: an example burraco policy written twice, as a native policy in Cython
(``pilewise._native:policy``) and as a plain Python function (``pilewise.python:policy``), the
two making the same choices. Both play by these rules (in the discard, "the call's random
stream" is ``burraco_random_below`` in Cython and ``view.random.below`` in Python):

Draw phase
    ``keep`` when it is a candidate (the brazilian first draw). Else ``pile`` when the top card of
    the discard pile is of use at once: it is a wild (a joker or a two), or it lays off on one of
    the side's own melds, or it makes a set or a run with two cards of the hand. Else ``draw``.
    Else the first candidate.

Meld phase
    The first non-empty class of these, in this order:

    1. lay-offs of a natural card (not a joker, not a two): the one on the longest own meld;
    2. new melds without a joker or a two: the one with the most cards;
    3. lay-offs of a wild on an own meld of six cards (it makes a burraco);
    4. new melds with a wild, if the meld has four cards or more, or the side has no meld yet,
       or it is late (see below): the one with the most cards;
    5. when it is late, lay-offs of a wild: the one on the longest own meld.

    Ties go to the first in canonical order. "Late" is: the hand holds three cards or fewer, or the
    stock eight or fewer. A side that has not met its brazilian opening minimum yet puts down
    nothing while the points of its melds (all of this turn) plus the points of every card the
    candidate melds and lay-offs would put down (each card as often as the one move putting down
    most copies of it) fall short of the requirement, and never a meld or lay-off that leaves the
    hand fewer than two cards (a short opening's cards only come back). When no class has a move,
    the discard below.

Discard
    The discard of the card of the lowest cost, ties broken by the higher card points, then
    uniformly at random among the cards still tied (one draw of the call's random stream when two
    or more are tied, none otherwise). The cost of a card:

    * a wild: 4000 (a wild is discarded only when nothing else can be);
    * a natural card: its use to the hand (10 per other card of its rank, any suit; 3 per card of
      its suit one slot away, 1 per card two slots away, in runs, the ace at slot 1 and at slot
      14, twos not counted), plus 1000 if it lays off on a meld of another side, plus 500 if the
      next seat is of another side and the card makes a set or a run with two of the cards that
      seat is known to hold (it would take the pile with it).

    With no discard among the candidates: the new meld with the most cards, else the first lay-off
    on the longest own meld, else the first candidate.

"Lays off" here is a cheap test, not the rules' own: a natural card on a set of its rank, or on a
run of its suit at the slot just below its lowest or just above its highest (the ace at slot 1 or
14); it is asked of natural cards only. "Makes a set or a run with two cards" is: two naturals of
its rank, or two naturals of its suit at slots p-2 and p-1, p-1 and p+1, or p+1 and p+2.

>>> import burraco
>>> native = burraco.Policy("pilewise._native:policy")
>>> twin = burraco.Policy("pilewise.python:policy")
"""

__all__: list = []
