import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// Printing photos (Ctrl+P, Print… in the photo's menu) with GtkPrintOperation: a page per
/// photo, turned to the photo's shape, the photo fitted to the printable area and centred on
/// the sheet.
///
/// Nothing is decoded in the browser: first each photo's shape is asked of a decoder
/// process (a tiny decode), which sets its page's orientation (`request-page-setup`); then
/// each page defers its drawing (`gtk_print_operation_set_defer_drawing`) while a decoder
/// process decodes the photo for the sheet at 300 dpi (at most its own size), and cairo
/// draws it on the main thread. A web photo or one on another machine is brought here first.
/// The decodes are jobs of the window (`WindowJobs`), cancelled when it closes; nothing GTK
/// goes to their threads: the window and the page's print context stay on the main thread,
/// held by the print job and found there again when the decode comes back.
///
/// With tracing on (tests), `GPHOTOBROWSE_PRINT_TO=PATH.pdf` skips the print dialog: the
/// operation exports its pages to that PDF (GTK's export action, the same pages a printer
/// gets). An export runs to its end before `gtk_print_operation_run` returns. Without
/// tracing the variable is ignored.
@MainActor
final class PhotoPrinting {
    private let live = LiveObjects.Token("PhotoPrinting")
    /// The jobs under way, held until GTK says they are done.
    private static var running: [PhotoPrinting] = []

    /// A photo to print: where to decode it from, and its shape.
    private struct Page: Sendable {
        let name: String
        let uri: String
        let size: PixelSize
    }

    private let pages: [Page]
    private let operation: OwnedObject<UnsafeMutablePointer<GtkPrintOperation>>
    private weak var toasts: Toasts?
    private let jobs: WindowJobs
    /// The page being drawn: its print context, valid until the page is finished (GTK draws
    /// one deferred page at a time).
    private var drawing: (page: Int, context: OpaquePointer)?

    /// What a print needs on the main thread while its photos' shapes are read: the window
    /// it prints from (weakly: it may close meanwhile) and where it says what went wrong.
    @MainActor
    private final class Start {
        let parent: WeakObject<UnsafeMutablePointer<GtkWindow>>
        weak var toasts: Toasts?
        init(parent: UnsafeMutablePointer<GtkWindow>, toasts: Toasts) {
            self.parent = WeakObject(parent)
            self.toasts = toasts
        }
    }

    /// Prints `photos`, a page each, through the print dialog over `parent`; the decodes
    /// are jobs of `jobs` (the window's).
    static func print(_ photos: [Photo], parent: UnsafeMutablePointer<GtkWindow>, toasts: Toasts, jobs: WindowJobs) {
        let wanted = photos.filter { !$0.isNotFound }.map { (name: $0.displayName, uri: $0.id) }
        guard !wanted.isEmpty else { return }
        let start = Start(parent: parent, toasts: toasts)
        jobs.run { flag in
            let shaped = wanted.map { photo in (photo.name, shape(of: photo.uri, cancellation: flag)) }
            guard !flag.isCancelled else { return }
            onMain { begin(start, shaped, jobs: jobs) }
        }
    }

    /// Back on the main thread with the photos' shapes: the print job, if its window is there.
    private static func begin(_ start: Start, _ shaped: [(String, Result<(uri: String, size: PixelSize), DecodeFailure>)], jobs: WindowJobs) {
        guard let toasts = start.toasts else { return }
        var pages: [Page] = []
        for (name, result) in shaped {
            switch result {
            case .success(let page): pages.append(Page(name: name, uri: page.uri, size: page.size))
            case .failure(let failure): toasts.show(tr("“%s” cannot be printed: %s", OutsideText(name), failure.reason), seconds: 10)
            }
        }
        guard !pages.isEmpty else { return }
        let job = PhotoPrinting(pages: pages, toasts: toasts, jobs: jobs)
        running.append(job)
        // From GLib's loop, not inside this drain of Dispatch's main queue: an export
        // runs a nested main loop until its pages are drawn, and their decodes come
        // back through that queue, which does not drain inside itself.
        whenIdle {
            var ran = false
            start.parent.withObject { parent in
                ran = true
                job.run(parent: parent)
            }
            if !ran { job.finish() }
        }
    }

    /// The photo brought here if need be, and its size after orientation, from a decode
    /// small enough to cost little. Blocking: on a worker.
    nonisolated private static func shape(of uri: String, cancellation flag: CancellationFlag) -> Result<(uri: String, size: PixelSize), DecodeFailure> {
        let local: String
        switch PhotoOriginals.bringHere(uri, cancellation: flag) {
        case .success(let here): local = here
        case .failure(let failure): return .failure(DecodeFailure(.unreadable, failure.message))
        }
        return IsolatedDecoder.shared.decode(DecodeRequest(uri: local, fitting: PixelSize(width: 32, height: 32)), cancellation: flag)
            .map { (local, $0.sourceSize) }
    }

    private init(pages: [Page], toasts: Toasts, jobs: WindowJobs) {
        self.pages = pages
        self.toasts = toasts
        self.jobs = jobs
        operation = OwnedObject(taking: gtk_print_operation_new()!)
        let op = operation.pointer
        gtk_print_operation_set_n_pages(op, Int32(pages.count))
        gtk_print_operation_set_unit(op, GTK_UNIT_POINTS)
        gtk_print_operation_set_job_name(op, pages.count == 1 ? pages[0].name : trn("%d Photo", "%d Photos", pages.count, pages.count))
        gtk_print_operation_set_embed_page_setup(op, 1)
        // Drawn from the sheet's corner: the photo is centred on the paper (`paint`).
        gtk_print_operation_set_use_full_page(op, 1)
        let setup = gtk_page_setup_new()!
        gtk_page_setup_set_orientation(setup, Self.orientation(of: pages[0]))
        gtk_print_operation_set_default_page_setup(op, setup)
        setup.unref()

        onSignal(op, "request-page-setup", pointerIntegerPointer: { [weak self] _, page, setup in
            guard let self, let setup, page >= 0, Int(page) < self.pages.count else { return }
            gtk_page_setup_set_orientation(OpaquePointer(setup), Self.orientation(of: self.pages[Int(page)]))
        })
        onSignal(op, "draw-page", pointerAndInteger: { [weak self] context, page in
            guard let self, let context, page >= 0, Int(page) < self.pages.count else { return }
            self.draw(Int(page), on: OpaquePointer(context))
        })
        onSignal(op, "done", integer: { [weak self] result in self?.done(GtkPrintOperationResult(rawValue: UInt32(bitPattern: result))) })
    }

    private static func orientation(of page: Page) -> GtkPageOrientation {
        PrintLayout.orientation(for: page.size) == .landscape ? GTK_PAGE_ORIENTATION_LANDSCAPE : GTK_PAGE_ORIENTATION_PORTRAIT
    }

    private func run(parent: UnsafeMutablePointer<GtkWindow>) {
        let op = operation.pointer
        gtk_print_operation_set_allow_async(op, 1)
        var action = GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG
        if Trace.isEnabled, let path = ProcessInfo.processInfo.environment["GPHOTOBROWSE_PRINT_TO"], !path.isEmpty {
            gtk_print_operation_set_export_filename(op, path)
            action = GTK_PRINT_OPERATION_ACTION_EXPORT
        }
        var error: UnsafeMutablePointer<GError>?
        let result = gtk_print_operation_run(op, action, parent, &error)
        if result == GTK_PRINT_OPERATION_RESULT_ERROR {
            let message = error.map { String(cString: $0.pointee.message) } ?? tr("The printing system failed.")
            if let error { g_error_free(error) }
            toasts?.show(tr("The photos were not printed: %s", message), seconds: 10)
            finish()
        }
    }

    /// Draws a page once a decoder process has decoded its photo for the sheet.
    private func draw(_ index: Int, on context: OpaquePointer) {
        let page = pages[index]
        let op = operation.pointer
        // The whole sheet (full page), in points, 72 to the inch (the operation's unit).
        let sheet = PageArea(width: gtk_print_context_get_width(context), height: gtk_print_context_get_height(context))
        let box = PrintLayout.decodeBox(for: sheet, unitsPerInch: 72)
        gtk_print_operation_set_defer_drawing(op)
        let request = DecodeRequest(uri: page.uri, fitting: box)
        drawing = (index, context)
        let owner = MainThreadOwner(self)
        jobs.run { flag in
            let decoded = IsolatedDecoder.shared.decode(request, cancellation: flag).map(PremultipliedImage.init)
            owner.onMain { printing in printing.decoded(decoded, page: index) }
        }
    }

    /// A page's photo decoded (or not): painted on the page's context, and the page finished.
    private func decoded(_ decoded: Result<PremultipliedImage, DecodeFailure>, page index: Int) {
        guard let drawing, drawing.page == index else { return }
        self.drawing = nil
        switch decoded {
        case .success(let image): paint(image, on: drawing.context)
        case .failure(let failure) where failure.kind == .cancelled: break  // the window closed
        case .failure(let failure): toasts?.show(tr("“%s” cannot be printed: %s", OutsideText(pages[index].name), failure.reason), seconds: 10)
        }
        gtk_print_operation_draw_page_finish(operation.pointer)
    }

    private func paint(_ image: PremultipliedImage, on context: OpaquePointer) {
        guard let cairo = gtk_print_context_get_cairo_context(context), let setup = gtk_print_context_get_page_setup(context) else { return }
        // The context is the whole sheet as turned (full page), in points. Which of the page
        // setup's margins lie at which edge of a turned sheet varies by backend: the widest
        // one is kept at every edge.
        let sheet = PageArea(width: gtk_print_context_get_width(context), height: gtk_print_context_get_height(context))
        let widest = [gtk_page_setup_get_top_margin(setup, GTK_UNIT_POINTS), gtk_page_setup_get_bottom_margin(setup, GTK_UNIT_POINTS),
                      gtk_page_setup_get_left_margin(setup, GTK_UNIT_POINTS), gtk_page_setup_get_right_margin(setup, GTK_UNIT_POINTS)].max() ?? 0
        let margins = PageMargins(top: widest, bottom: widest, left: widest, right: widest)
        let rect = PrintLayout.placement(of: image.size, onSheet: sheet, margins: margins)
        let surface = CanvasSurface(image)
        cairo_save(cairo)
        cairo_translate(cairo, rect.x, rect.y)
        cairo_scale(cairo, rect.width / Double(image.size.width), rect.height / Double(image.size.height))
        cairo_set_source_surface(cairo, surface.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD)
        cairo_rectangle(cairo, 0, 0, Double(image.size.width), Double(image.size.height))
        cairo_fill(cairo)
        cairo_restore(cairo)
    }

    private func done(_ result: GtkPrintOperationResult) {
        switch result {
        case GTK_PRINT_OPERATION_RESULT_APPLY:
            Trace.milestone("printed", pages.count)
            toasts?.show(pages.count == 1 ? tr("Printed “%s”", pages[0].name) : trn("Printed %d photo", "Printed %d photos", pages.count, pages.count))
        case GTK_PRINT_OPERATION_RESULT_ERROR:
            var error: UnsafeMutablePointer<GError>?
            gtk_print_operation_get_error(operation.pointer, &error)
            let message = error.map { String(cString: $0.pointee.message) } ?? tr("The printing system failed.")
            if let error { g_error_free(error) }
            toasts?.show(tr("The photos were not printed: %s", message), seconds: 10)
        default:
            break  // cancelled, or still going on elsewhere (a print server)
        }
        // After the signal's emission: the operation is not let go inside its own handler.
        whenIdle { [weak self] in self?.finish() }
    }

    private func finish() {
        Self.running.removeAll { $0 === self }
    }
}
