"""The app speaks the language of the desktop: started with LANGUAGE=zh_CN (or zh_TW), its
window title and pages are in Chinese, from the catalogs it finds beside itself (meson's
build tree, or build-aux/run.sh's)."""

import pytest

from harness import make_solid


@pytest.mark.parametrize("language, title", [("zh_CN", "照片浏览器"), ("zh_TW", "相片瀏覽器")])
def test_the_welcome_page_is_in_the_desktops_language(launch, tmp_path, language, title):
    app = launch(extra_env={"LANGUAGE": language})   # no Pictures folder: the welcome page
    app.wait_for_window(rf"^{title}$")
    assert app.quit() == 0


def test_english_without_a_language(launch):
    app = launch()
    app.wait_for_window(r"^Photo Browser$")
    assert app.quit() == 0
