"""``Game(preset_name)``: a preset's name stands for its rules, on both engines (docs/api.md), as
the command, the server and the environments take a preset."""

import pytest

PRESETS = ("italian", "italian-2p", "italian-3p", "online-2p", "brazilian")


@pytest.mark.parametrize("preset", PRESETS)
def test_a_preset_name_deals_as_its_rules(engine, preset):
    by_name = engine.Game(preset, seed=11, first_player=1)
    by_rules = engine.Game(engine.Rules(preset), seed=11, first_player=1)
    assert by_name.rules == engine.Rules(preset)
    assert by_name.state_string() == by_rules.state_string()
    assert by_name == by_rules


def test_a_preset_name_takes_a_seed_and_scores(engine):
    by_name = engine.Game("brazilian", seed=3, scores=(1000, 2000))
    by_rules = engine.Game(engine.Rules("brazilian"), seed=3, scores=(1000, 2000))
    assert by_name.scores == (1000, 2000) and by_name.seed == 3
    assert by_name.state_string() == by_rules.state_string()


@pytest.mark.parametrize("name", ["italian-5p", "", "Italian", "italian "])
def test_an_unknown_preset_name_is_refused_quoting_it(engine, name):
    with pytest.raises(engine.InvalidNotationError) as refused:
        engine.Game(name, seed=1)
    assert repr(name) in str(refused.value)
    with pytest.raises(engine.InvalidNotationError):
        engine.Rules(name)


@pytest.mark.parametrize("value", [5, 1.5, b"italian", ["italian"], object()])
def test_other_rules_values_are_refused(engine, value):
    with pytest.raises(engine.InvalidNotationError):
        engine.Game(value, seed=1)
