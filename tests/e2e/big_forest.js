// A layout probe for tests/e2e/test_page_enjoy.py: the viewer's payload drawn again with
// a forest of 15 trees (the catalog's first tree cards, with split cards of the catalog in
// their slots), to measure how a big forest is laid out. Only the drawing is tested this
// way: no action is sent, and the next payload of the server replaces it.
() => {
  const g = window.forestShuffle;
  const p = JSON.parse(JSON.stringify(g.payload));
  const cards = Object.values(g.cat.cards);
  const trees = cards.filter((c) => c.kind === "tree").slice(0, 15);
  const vertical = cards.filter((c) => c.kind === "split" && c.axis === "vertical");
  const horizontal = cards.filter((c) => c.kind === "split" && c.axis === "horizontal");
  let v = 0;
  let hz = 0;
  p.view.forests[p.you] = trees.map((t, i) => ({
    card: t.id, sapling: false, slots: {
      top: i % 3 ? [vertical[v++].id] : [], bottom: i % 2 ? [vertical[v++].id] : [],
      left: i % 4 !== 1 ? [horizontal[hz++].id] : [], right: i % 5 ? [horizontal[hz++].id] : [],
    },
  }));
  p.card_points = p.card_points.map(() => ({}));
  p.version += 1;
  g.onState(p);
  return p.view.forests[p.you].length;
}
