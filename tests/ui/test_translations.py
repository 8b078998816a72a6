"""The app speaks the language of the desktop: started with LANGUAGE=zh_CN (or zh_TW), its
window title and pages are in Chinese, from the catalogs it finds beside itself (meson's
build tree, or build-aux/run.sh's)."""

import time

import pytest

from harness import Deadline, make_solid


@pytest.mark.parametrize("language, title", [("zh_CN", "照片浏览器"), ("zh_TW", "相片瀏覽器")])
def test_the_welcome_page_is_in_the_desktops_language(launch, tmp_path, language, title):
    app = launch(extra_env={"LANGUAGE": language})   # no Pictures folder: the welcome page
    app.wait_for_window(rf"^{title}$")
    assert app.quit() == 0


def test_english_without_a_language(launch):
    app = launch()
    app.wait_for_window(r"^Photo Browser$")
    assert app.quit() == 0


def test_header_buttons_show_no_access_keys_in_chinese(launch, photo_folder):
    """The picker's Cancel and Choose in the header bar, read as a screen reader reads them
    (AT-SPI): the catalog's "取消(_C)" and "选择(_H)" without the key in parentheses."""
    from test_accessibility import SPEAKING, have_atspi, nodes, tree
    if not have_atspi():
        pytest.skip("needs gir1.2-atspi-2.0 (build-aux/install-deps.sh test)")
    folder = photo_folder("选", {"a-red.png": "red"})
    app = launch("--pick", folder, extra_env={"LANGUAGE": "zh_CN", **SPEAKING})
    app.wait_for_line(r"^trace visible-thumbnails 1 \d+$", timeout=30)
    app.wait_for_window(r"^选$")
    buttons = {n["name"] for n in nodes(tree(app)) if n["role"] == "push button"}
    assert {"取消", "选择"} <= buttons, f"the header's buttons: {sorted(buttons)}"
    keyed = [b for b in buttons if b.startswith(("取消", "选择")) and ("(" in b or "（" in b or "_" in b)]
    assert not keyed, f"buttons showing an access key: {keyed}"
    app.key("Escape")


def test_status_page_buttons_show_no_access_keys_in_chinese(launch):
    """A web album that cannot be reached: the page's Retry and Open Folder… read "重试" and
    "打开文件夹…", not "重试(R)" and "打开文件夹(O)…" (the catalog once added the keys)."""
    from test_accessibility import SPEAKING, have_atspi, nodes, tree
    if not have_atspi():
        pytest.skip("needs gir1.2-atspi-2.0 (build-aux/install-deps.sh test)")
    # Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    app = launch("http://127.0.0.1:9/album.json", extra_env={"LANGUAGE": "zh_CN", **SPEAKING})
    app.wait_for_window(None)
    deadline = Deadline(30)
    while True:
        buttons = {n["name"] for n in nodes(tree(app)) if n["role"] == "push button"}
        # The page's buttons (the header bar's Open Folder… is named alike).
        shown = sorted(b for b in buttons if b.startswith(("重试", "打开文件夹")))
        if any(b.startswith("重试") for b in shown) or deadline.expired():
            break
        time.sleep(0.3)
    assert any(b.startswith("重试") for b in shown), f"no Retry on the page: {sorted(buttons)}"
    assert shown == ["打开文件夹…", "重试"], f"buttons showing an access key: {shown}"
    assert app.quit() == 1, "what the command line named could not be shown: exit status 1"
