"""The merge table's columns: titles, indices, header tooltips and what a cell says while
the Fires column is being counted (:class:`~tokexplorer.gui.models.merge_model.MergeTableModel`)."""

from __future__ import annotations

#: Column titles, in order.
MERGE_COLUMNS: tuple[str, ...] = (
    "Rank",
    "Left",
    "Right",
    "Merged token",
    "Bytes",
    "Count",
    "Fires\n(Compare text)",  # two lines: the token columns keep their width in a 1,000-pixel window
)
COL_RANK, COL_LEFT, COL_RIGHT, COL_MERGED, COL_BYTES, COL_COUNT, COL_FIRES = range(7)
#: What a Fires cell says while the Compare text is being encoded (blank would read as 0).
COUNTING = "counting…"

#: The Fires header's tooltip; ``text`` names the Compare text (``AppState.sample_label``).
FIRES_TIP = (
    "How often the merge fires when the Compare text is encoded; counted in: {text} "
    "(0: not in that text, even if the merge is frequent in the corpus; pick another "
    "corpus file above the Compare editor)"
)

#: Display modes of the token columns.
DISPLAY_MODES: tuple[str, ...] = ("text", "hex", "gpt2")

HEADER_TIPS = (
    "Merge rank: 0 is the first merge learned and the first applied when encoding",
    "Left token of the merged pair",
    "Right token of the merged pair",
    "The new token (left + right); bytes that are part of a UTF-8 character are shown as \\xNN, a character "
    "that looks like another (│ beside |, a no-break space, a Cyrillic а among Latin letters) as <U+XXXX> "
    "(its tooltip lists the token's code points)",
    "Length of the merged token in bytes",
    "How often the pair occurred in the pre-tokenized corpus when it was merged "
    "(empty: unknown, e.g. merges recovered from tiktoken ranks)",
    FIRES_TIP.format(text="the text of the Compare tab"),
)
WHOLE_TIP = (
    "token {id} · {n} bytes: {hex} · no merge builds it: rank-order merging of its bytes ends "
    "with other parts, so it is emitted only when a whole chunk (pre-tokenizer piece) is this token"
)
