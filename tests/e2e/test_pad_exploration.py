"""The score pad's page in Chromium at phone size with an Exploration table: the spec's
version-3 example tapped in (its total worked out in tests/test_forest_json_v3.py), the
named cave chosen by name, and the Cuckoo offered only onto a top slot holding a bird."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .test_pad_page import _choose, _entered


def test_an_exploration_table_with_a_named_cave_and_a_cuckoo(server: str, phone: Page) -> None:
    phone.goto(server + "/pad")
    phone.get_by_test_id("pad-game").select_option("base+woodland_edge+exploration")
    phone.get_by_test_id("pad-name").fill("Ann")
    phone.get_by_test_id("pad-open").click()
    phone.wait_for_url("**/pad/*")
    expect(phone.get_by_test_id("pad-total-0")).to_have_text("0")
    # the spec's example: Palm Tree (Robin on top, Elk left), Turkey Oak (Marsh
    # Cinquefoil at the bottom, Troll right)
    for i, (tree, cards) in enumerate((("Palm Tree", (("top", "Robin"), ("left", "Elk"))),
                                       ("Turkey Oak", (("bottom", "Marsh Cinquefoil"),
                                                       ("right", "Troll"))))):
        phone.get_by_test_id("pad-add-tree").click()
        _choose(phone, tree, None)
        for side, name in cards:
            phone.get_by_test_id(f"pad-add-trees-{i}-{side}").click()
            _choose(phone, name, None)
    # the cave is chosen by name (no cave numbers in this game)
    expect(phone.get_by_test_id("pad-cave-number")).to_have_count(0)
    phone.get_by_test_id("pad-cave-name").select_option("Bat Cave")
    phone.get_by_test_id("pad-cave").fill("3")
    phone.get_by_test_id("pad-set-cave").click()
    _entered(phone)
    expect(phone.get_by_test_id("pad-total-0")).to_have_text("28")
    expect(phone.get_by_test_id("pad-lines")).to_contain_text("3")
    # an Oak: its empty top slot offers no Cuckoo; with a bird there, it does
    phone.get_by_test_id("pad-add-tree").click()
    _choose(phone, "Oak", None)
    phone.get_by_test_id("pad-add-trees-2-top").click()
    phone.get_by_test_id("pad-search").fill("Cuckoo")
    expect(phone.locator(".pad-options [data-species]")).to_have_count(0)
    phone.get_by_role("button", name="Cancel").click()
    phone.get_by_test_id("pad-add-trees-2-top").click()
    _choose(phone, "Tawny Owl", "Beech")
    phone.get_by_test_id("pad-add-trees-2-top").click()
    phone.get_by_test_id("pad-search").fill("Cuckoo")
    expect(phone.locator(".pad-options [data-species]")).to_have_count(1)
    _choose(phone, "Cuckoo", None)
    _entered(phone)
    # 28 + Tawny Owl 5 + Cuckoo 7 + Palm Tree 2 more birds + Troll 1 more tree + Elk the
    # Cuckoo's Birch half 2 (tests/web/test_pad_api.py works out the same table)
    expect(phone.get_by_test_id("pad-total-0")).to_have_text("45")
    expect(phone.get_by_test_id("pad-host-trees-2")).to_contain_text("Cuckoo")
    # a tap on the Palm Tree gives its reason with what is provisional about it
    phone.get_by_test_id("pad-host-trees-0").locator(".pad-host-name").click()
    expect(phone.get_by_test_id("pad-why")).to_contain_text("provisional")
    expect(phone.get_by_test_id("pad-error")).to_be_hidden()
