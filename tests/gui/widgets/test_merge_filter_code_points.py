"""The merge table's text filter finds a look-alike by the notation its cells show (<U+2502>)."""

from __future__ import annotations

from tokexplorer.core.bpe import train_bpe
from tokexplorer.gui.models.merge_filter import MergeFilter, build_search_index, filter_mask, text_needle


def test_text_needle_reads_code_points_as_the_cells_write_them():
    assert text_needle("␣<U+2502>") == " │"
    assert text_needle("<u+2019>S") == "’s"
    assert text_needle("<U+1F30A>") == "🌊"
    assert text_needle("<U+110000>") == "<u+110000>"  # no such code point: searched as typed


def test_a_filter_by_code_point_finds_the_look_alike_not_the_ascii_one():
    bpe, _ = train_bpe("a │ b | c ’s x\n" * 50, vocab_size=275, pattern="gpt2")
    index = build_search_index(bpe.merges, bpe.vocab)
    tokens = [m.merged for m in bpe.merges]

    def found(needle: str) -> list[bytes]:
        mask = filter_mask(tokens, MergeFilter(needle=needle), index=lambda: index)
        return [t for t, keep in zip(tokens, mask) if keep]

    assert found("<U+2502>") == found("│") == [" │".encode()]
    assert found("<u+2019>") == found("’") == [" ’".encode()]
    assert b" |" in tokens and b" |" not in found("<U+2502>")
