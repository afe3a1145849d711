"""A castle layout of your own and an explicit deal instead of the seeded shuffle.

    python3 examples/custom_layout.py
"""

import dragoncastle as dc

# One row per line, one digit per space: the height of its stack ('.' = no space).
# A layout must hold exactly the 116 tiles; validate() lists the rulebook's advice it breaks.
text = """\
111111111111
111111111111
111122222111
111122222111
111122222111
111122222111
111111111111
111111111111"""
layout = dc.Layout.parse(text)
print("warnings:", layout.validate(players=2))

# An explicit deal: the 116 tile codes in dealing order (stacks row by row, each
# bottom to top), each code exactly 4 times. Here: the tiles in code order.
deal = [f"{kind}{n}" for kind, top in (("Me", 6), ("So", 6), ("Fa", 6), ("Se", 4), ("Wi", 4), ("Dr", 3))
        for n in range(1, top + 1) for _ in range(4)]
game = dc.Game(players=2, layout=layout, deal=deal)
print(f"top floor {game.top_floor}; the first picks: {[str(a) for a in game.legal_actions()][:6]} ...")

# Bad layouts are errors with the reason.
try:
    dc.Layout.parse("12\n3")
except ValueError as e:
    print("rejected:", e)

result = dc.play(game, [dc.agents.GreedyAgent(seed=0), dc.agents.GreedyAgent(seed=1)])
print("scores on the custom castle:", result.scores)
