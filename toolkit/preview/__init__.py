"""`playset preview`: a local page showing a game's cards, board and rulebook as they print,
redrawn as files are saved, with the diagnostics of `validate` beside what they concern.

deps (what is drawn and what it reads) → draw (targets to PNG pages, through build's PDF
code and the shared rasteriser) → cache (last good pages, versions) → live (the session,
its worker and document threads) → attach and page (diagnostics by place, the page's state)
→ app (Starlette: page, images, state, events) → watcher and serve (watchfiles, uvicorn).
"""
