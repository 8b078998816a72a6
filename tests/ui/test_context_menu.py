"""The context menu of a tile shows every item, from the first time it opens."""

from harness import COLOURS, open_folder, tiles_check, wait_for_screen, wait_for_still_screen


def light_run(image, x: int, y0: int, y1: int) -> int:
    """The longest run of light pixels (the menu's background) down column x between y0 and y1."""
    best = run = 0
    for y in range(y0, y1):
        r, g, b = image.pixel(x, y)
        run = run + 1 if min(r, g, b) > 200 else 0
        best = max(best, run)
    return best


def menu_height(app, x: int, y: int) -> int:
    """Opens the context menu at (x, y), measures its height on screen, and closes it."""
    app.until_shown(lambda: app.click(x, y, button=3), "GtkPopoverMenu context-menu")
    # The menu opens below and to the right of the click; its left margin, just right of
    # the click, has no text. Measured once it has stopped growing, if it was going to.
    shot = wait_for_still_screen(app, lambda image: (light_run(image, x + 4, y, min(image.height, y + 400)) > 100,
                                                     "no menu below the click"), what="the menu")
    height = light_run(shot, x + 4, y, min(shot.height, y + 400))
    app.until_hidden(lambda: app.key("Escape"), "GtkPopoverMenu context-menu")
    return height


def test_the_context_menu_is_as_tall_the_first_time_as_later(launch, photo_folder):
    folder = photo_folder("menu", {"1-red.png": "red", "2-green.png": "green", "3-blue.png": "blue"})
    app = open_folder(launch, folder, count=3)
    shot = wait_for_screen(app, tiles_check({c: COLOURS[c] for c in ("red", "green", "blue")}))
    tile = shot.blobs({"red": COLOURS["red"]})["red"]
    x, y = round(tile.cx), round(tile.cy)
    first = menu_height(app, x, y)
    second = menu_height(app, x, y)
    # Six items in two sections: well over 200 px. A menu measured before GTK added its
    # section separator comes out shorter and cuts off its last item (Properties).
    assert second > 200, f"the menu is {second} px tall (the first {first})"
    assert first == second, f"the first menu is {first} px tall, the second {second} px: the first cuts off its last item"
    assert app.quit() == 0
