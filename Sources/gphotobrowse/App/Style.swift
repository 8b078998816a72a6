import CGtk

/// The app's own CSS: tile shapes and the viewer's dark backdrop.
enum Style {
    static let css = """
    gridview.photo-grid { padding: 6px; }
    gridview.photo-grid > child { padding: 3px; border-radius: 8px; }
    gridview.photo-grid > child:selected { background-color: transparent; }  /* our selection draws itself */
    .thumbnail { background-color: alpha(currentColor, 0.07); border-radius: 6px; }
    /* A broken tile stands out from the grid's white background, its edge drawn. */
    .thumbnail.broken { background-color: alpha(currentColor, 0.10); box-shadow: inset 0 0 0 1px alpha(currentColor, 0.12); }
    .broken-sign { color: alpha(currentColor, 0.7); }
    .thumbnail.selected { box-shadow: inset 0 0 0 4px @accent_bg_color; }
    .thumbnail.selected picture { opacity: 0.85; }
    .tile-check { min-width: 24px; min-height: 24px; border-radius: 999px; color: transparent;
                  background-color: alpha(black, 0.35); box-shadow: inset 0 0 0 2px white; -gtk-icon-size: 16px; }
    .tile-check.checked { color: white; background-color: @accent_bg_color; box-shadow: none; }
    /* A photo whose end is missing: a sign on a dark disc, legible on any photo. */
    .tile-warning { color: white; background-color: alpha(black, 0.6); border-radius: 999px; padding: 4px; }
    .tile-marks { color: white; background-color: alpha(black, 0.45); border-radius: 999px; padding: 0 6px;
                  font-size: smaller; }
    .tile-badge { color: white; background-color: alpha(black, 0.55); border-radius: 4px; padding: 0 5px;
                  font-size: smaller; font-weight: bold; }
    .edit-bar { padding: 6px; }
    .photo-viewer { background-color: #1e1e1e; }
    .viewer-toolbar { background-color: alpha(#1e1e1e, 0.85); color: white; padding: 4px 8px; }
    .viewer-toolbar button { color: white; }
    /* The Live button: a raised pill over the dark toolbar, bold as the tiles' badge. */
    .viewer-toolbar button.live-button { background-color: alpha(white, 0.15); border-radius: 999px; padding: 2px 14px;
                                         font-weight: bold; }
    .viewer-toolbar button.live-button:hover { background-color: alpha(white, 0.25); }
    .viewer-toolbar button.live-button:active { background-color: alpha(white, 0.35); }
    .zoom-badge { padding: 6px 14px; border-radius: 999px; font-weight: bold; }
    .paging-button { transition: opacity 200ms ease-in-out; }
    .properties-panel { background-color: @window_bg_color; border-left: 1px solid alpha(currentColor, 0.15); }
    listview.album-switcher { background-color: transparent; }
    scrolledwindow.album-row undershoot.left { background: linear-gradient(to right, @headerbar_bg_color, alpha(@headerbar_bg_color, 0) 32px); }
    scrolledwindow.album-row undershoot.right { background: linear-gradient(to left, @headerbar_bg_color, alpha(@headerbar_bg_color, 0) 32px); }
    listview.album-switcher > row { padding: 3px 10px 3px 4px; margin: 0 2px; border-radius: 999px; }
    listview.album-switcher > row:selected { background-color: alpha(currentColor, 0.12); color: inherit; }
    listview.album-switcher > row:hover:not(:selected) { background-color: alpha(currentColor, 0.06); }
    .album-cover { border-radius: 999px; }
    .album-heading { font-weight: bold; opacity: 0.55; padding-left: 8px; }
    /* A card behind the words, so that they read over any photo or preview under them. */
    .viewer-message { color: white; background-color: alpha(black, 0.75); border-radius: 12px; font-size: 1.2em; padding: 12px 18px; margin: 24px; }
    listview.album-switcher { background: none; }
    listview.album-switcher > row { padding: 2px 8px; border-radius: 6px; }
    .album-cover { border-radius: 4px; }
    .album-chip.album-heading { font-weight: bold; opacity: 0.55; }
    /* GTK 4.8 measures a popover's height for its width with its shadow left in, then lays its
       contents out without it: wrapped lines would be cut off at the bottom. A border instead. */
    popover.not-found-notice > contents, popover.rename-photo > contents { box-shadow: none; border: 1px solid alpha(black, 0.14); }
    .offline-banner { background-color: @accent_bg_color; color: @accent_fg_color; padding: 6px 12px; }
    .download-label { background-color: alpha(black, 0.6); color: white; border-radius: 999px; padding: 4px 12px; }
    .thumbnail.missing { background-color: alpha(currentColor, 0.04); box-shadow: inset 0 0 0 1px alpha(currentColor, 0.15); }
    """

    @MainActor
    static func install() {
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), provider.cast(), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        provider.unref()
    }
}
