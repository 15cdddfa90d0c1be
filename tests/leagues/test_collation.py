"""Names sorted and found as people expect (no database)."""

from __future__ import annotations

import random

from scorekeeper.leagues.collation import fold, initial, matches, sort_key


def test_accented_names_sort_with_their_letters_whatever_the_case() -> None:
    names = ["Zoë", "ørjan", "Émile", "Đặng", "anna", "Bob", "Ørsted", "dave", "Eve"]
    expected = ["anna", "Bob", "Đặng", "dave", "Émile", "Eve", "ørjan", "Ørsted", "Zoë"]
    for seed in range(5):  # whatever order the names come in
        shuffled = random.Random(seed).sample(names, len(names))
        assert sorted(shuffled, key=sort_key) == expected


def test_the_same_name_without_accents_comes_first_and_the_order_is_total() -> None:
    names = ["Émile", "emile", "Emile", "EMILE"]
    assert sorted(names, key=sort_key) == ["EMILE", "Emile", "emile", "Émile"]
    assert len({sort_key(name) for name in names}) == len(names)


def test_letters_that_do_not_decompose_are_filed_under_their_letter() -> None:
    assert [initial(n) for n in ["Đặng", "Émile", "Ørjan", "Łukasz", "Þóra"]] == [
        "D",
        "E",
        "O",
        "L",
        "T",
    ]
    assert fold("Ærø Straße") == "aero strasse"


def test_a_name_not_starting_with_a_letter_is_filed_under_hash() -> None:
    assert initial("42 Ann") == "#"
    assert initial("  Ann") == "A"
    assert initial("") == "#"


def test_a_search_finds_names_accents_and_case_aside() -> None:
    assert matches("Đặng Văn", "dang")
    assert matches("Đặng Văn", "VAN dặng")  # every word, in any order
    assert matches("Émile", "emi")
    assert not matches("Émile", "emma")
    assert matches("Ann", "")  # no query: every name


def test_a_search_finds_the_start_of_a_word_not_its_middle() -> None:
    assert matches("Jo Berg", "jo") and matches("Anne-Marie Roy", "mar")
    assert not matches("Marjorie", "jo")
    assert matches("Christopher Alexander-Worth", "worth chris")
