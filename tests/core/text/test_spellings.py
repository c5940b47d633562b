"""spelled_in: which special token spellings a text holds, one scan per shared prefix."""

import random

from tokexplorer.core.text.spellings import spelled_in

CL100K_SPECIALS = ["<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|endofprompt|>"]


def test_finds_exactly_the_spellings_present():
    text = "intro <|fim_prefix|>def f(): <|fim_suffix|> and <|endoftext|" + "<|" * 10
    assert spelled_in(text, CL100K_SPECIALS) == {"<|fim_prefix|>", "<|fim_suffix|>"}


def test_many_spellings_of_one_prefix_like_llama3():
    specials = [f"<|reserved_special_token_{i}|>" for i in range(250)] + ["<|begin_of_text|>"]
    text = "a" * 1000 + "<|reserved_special_token_17|>" + "<|begin_of_text" + "<|reserved_special_token_249|>"
    assert spelled_in(text, specials) == {"<|reserved_special_token_17|>", "<|reserved_special_token_249|>"}


def test_a_common_prefix_past_the_hit_limit_still_gives_the_same_answer():
    text = "<|x " * 10_000 + "<|endofprompt|>"
    assert spelled_in(text, CL100K_SPECIALS) == {"<|endofprompt|>"}


def test_single_character_and_empty_spellings():
    assert spelled_in("a [CLS] b", ["", "[", "[CLS]", "[SEP]", "b"]) == {"[", "[CLS]", "b"}


def test_random_texts_agree_with_in():
    rnd = random.Random(7)
    for _ in range(3000):
        text = "".join(rnd.choice("ab<|>") for _ in range(rnd.randint(0, 50)))
        spellings = ["".join(rnd.choice("ab<|>") for _ in range(rnd.randint(0, 5))) for _ in range(rnd.randint(0, 9))]
        assert spelled_in(text, spellings) == {s for s in spellings if s and s in text}
