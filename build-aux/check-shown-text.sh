#!/usr/bin/env bash
# Checks that the app sets widgets' texts only through Sources/gphotobrowse/Bridge/Texts.swift,
# which takes a ShownText: cleaned of control and bidirectional override characters, and
# escaped for the widgets that parse Pango markup (status pages' descriptions, toasts, rows).
# A direct call to one of those setters anywhere else could show a server's or a file's text
# as markup.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
setters=(
  adw_status_page_set_title adw_status_page_set_description
  gtk_window_set_title adw_window_title_set_title adw_window_title_set_subtitle
  adw_toast_new adw_toast_set_title adw_toast_set_button_label_markup
  gtk_widget_set_tooltip_text gtk_widget_set_tooltip_markup
  adw_preferences_row_set_title adw_action_row_set_subtitle adw_expander_row_set_subtitle
  adw_expander_row_set_title adw_combo_row_set_subtitle adw_entry_row_set_title
  gtk_label_set_markup gtk_label_set_markup_with_mnemonic gtk_label_set_text gtk_label_set_label
  gtk_label_set_text_with_mnemonic gtk_label_new_with_mnemonic
  adw_message_dialog_new adw_message_dialog_set_heading adw_message_dialog_set_body
  adw_message_dialog_format_heading adw_message_dialog_format_body
  adw_message_dialog_format_heading_markup adw_message_dialog_format_body_markup
  adw_message_dialog_set_heading_use_markup adw_message_dialog_set_body_use_markup
  gtk_button_set_label gtk_check_button_new_with_label gtk_check_button_set_label
)
pattern="\\b($(IFS='|'; echo "${setters[*]}"))\\s*\\(|\\bgtk_label_new\\s*\\((?!nil\\))"
found=$(grep -rnP "$pattern" Sources/gphotobrowse --include=*.swift | grep -v '^Sources/gphotobrowse/Bridge/Texts.swift:' || true)
if [[ -n "$found" ]]; then
  echo "check-shown-text: widget texts set outside Sources/gphotobrowse/Bridge/Texts.swift (use Texts with a ShownText):" >&2
  echo "$found" >&2
  exit 1
fi
echo "check-shown-text: every widget text goes through Texts"
