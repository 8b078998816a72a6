import Testing
@testable import PhotoCore

@Suite struct ActionPolicyTests {
    static let states = BrowserState.all

    @Test func everyStateIsEnumeratedOnce() {
        #expect(Self.states.count == 3 * 3 * 3 * 3 * 2 * 3 * 2 * 2 * 2 * 2 * 2)
        #expect(Set(Self.states).count == Self.states.count)
    }

    @Test func aPickingWindowEnablesNothingThatChangesAnything() {
        for state in Self.states where state.picking != .browsing {
            let offer = ActionPolicy.browser(state)
            let changing = offer.enabled.filter(\.changesSomething)
            #expect(changing.isEmpty, "picking \(state) enables \(changing)")
            #expect(!offer.shown.contains(.saveRotation), "picking \(state) shows Save Rotation")
            #expect(!offer.shown.contains(.editBar) && !offer.shown.contains(.select), "picking \(state) offers edit mode")
        }
    }

    @Test func everyPickingStateCanStillBeCancelled() {
        for state in Self.states where state.picking != .browsing {
            #expect(ActionPolicy.browser(state).enabled.contains(.pickCancel))
        }
        for state in Self.states where state.picking == .browsing {
            let enabled = ActionPolicy.browser(state).enabled
            #expect(!enabled.contains(.pickCancel) && !enabled.contains(.pickChoose))
        }
    }

    @Test func theWritingActionsAreTheOnesThatWrite() {
        let writing = Set(BrowserAction.allCases.filter(\.changesSomething))
        #expect(writing == [.edit, .leaveEdit, .export, .trash, .deletePermanently, .undo, .rename, .saveRotation, .print,
                            .setBackground, .markUp, .saveCopy, .addToAlbum, .removeFromAlbum, .renameAlbum, .deleteAlbum,
                            .rate0, .rate1, .rate2, .rate3, .rate4, .rate5, .favourite, .tag])
    }

    @Test func searchingOnlyOverAGridAndChoosingToo() {
        for state in Self.states where ActionPolicy.browser(state).enabled.contains(.search) {
            #expect(state.page == .grid && state.album != .none)
        }
        let choosing = BrowserState(page: .grid, picking: .one, album: .folder, hasPhotos: true)
        #expect(ActionPolicy.browser(choosing).enabled.contains(.search))
        #expect(!ActionPolicy.browser(choosing).enabled.contains(.tag))
    }

    @Test func saveRotationOnlyAfterARotationInTheViewer() {
        for state in Self.states {
            let offer = ActionPolicy.browser(state)
            if offer.enabled.contains(.saveRotation) {
                #expect(state.rotationPending && state.page == .viewer && state.place != .web && state.kind == .photo)
            }
            #expect(offer.shown.contains(.saveRotation) == offer.enabled.contains(.saveRotation))
        }
        let turned = BrowserState(page: .viewer, album: .folder, actsOn: .one, hasPhotos: true, rotationPending: true)
        #expect(ActionPolicy.browser(turned).enabled.contains(.saveRotation))
        var grid = turned
        grid.page = .grid
        #expect(!ActionPolicy.browser(grid).enabled.contains(.saveRotation))
    }

    @Test func zoomAndRotationActOnlyOnAStillShownInTheViewer() {
        for state in Self.states where !ActionPolicy.viewer(state).isEmpty {
            #expect(state.page == .viewer && !state.showsMovie && state.hasPhotos)
        }
        let photo = BrowserState(page: .viewer, album: .folder, actsOn: .one, hasPhotos: true)
        #expect(ActionPolicy.viewer(photo) == Set(ViewerAction.allCases))
        var movie = photo
        movie.showsMovie = true
        #expect(ActionPolicy.viewer(movie).isEmpty)
        // What else the viewer offers stays: a video is trashed, renamed, exported as a photo is.
        #expect(ActionPolicy.browser(movie) == ActionPolicy.browser(photo))
    }

    @Test func theSelectedCheckShowsOnlyInEditModeInTheViewer() {
        for state in Self.states where ActionPolicy.browser(state).shown.contains(.selectedCheck) {
            #expect(state.editing && state.page == .viewer && state.picking != .one)
        }
        let editing = BrowserState(page: .viewer, album: .folder, actsOn: .one, hasPhotos: true, editing: true)
        #expect(ActionPolicy.browser(editing).shown.contains(.selectedCheck))
    }

    @Test func nothingActsOnPhotosWithoutAFolder() {
        for state in Self.states where state.album == .none {
            let enabled = ActionPolicy.browser(state).enabled
            #expect(enabled.isSubset(of: [.open, .openLocation, .pickCancel]), "\(state) enables \(enabled)")
        }
    }

    @Test func aStatusPageActsOnNoPhoto() {
        let photoActions: Set<BrowserAction> = [.trash, .export, .rename, .saveRotation, .copy, .print, .markUp, .setBackground,
                                                .saveCopy, .addToAlbum, .removeFromAlbum, .pickChoose, .slideshow, .back]
        for state in Self.states where state.page == .status {
            #expect(ActionPolicy.browser(state).enabled.isDisjoint(with: photoActions))
        }
    }

    @Test func webPhotosAreNeitherTrashedNorRenamedNorTurned() {
        for state in Self.states where state.place == .web {
            #expect(ActionPolicy.browser(state).enabled.isDisjoint(with: [.trash, .deletePermanently, .rename, .saveRotation, .showInFiles]))
        }
    }

    @Test func photosNotFoundOfferOnlyRemovingThem() {
        let fileActions: Set<BrowserAction> = [.trash, .export, .rename, .copy, .print, .markUp, .setBackground, .saveCopy,
                                               .addToAlbum, .openWith, .photoProperties, .favourite, .rate4, .tag]
        for state in Self.states where state.kind == .notFound {
            #expect(ActionPolicy.browser(state).enabled.isDisjoint(with: fileActions))
        }
        let missing = BrowserState(page: .grid, album: .yours, kind: .notFound, actsOn: .one, hasPhotos: true)
        #expect(ActionPolicy.browser(missing).enabled.contains(.removeFromAlbum))
    }

    @Test func albumActionsOnlyOnTheAlbumsOfThePersonsOwn() {
        for state in Self.states {
            let enabled = ActionPolicy.browser(state).enabled
            if !enabled.isDisjoint(with: [.removeFromAlbum, .renameAlbum, .deleteAlbum]) { #expect(state.album == .yours) }
        }
    }

    @Test func oneExportAtATime() {
        for state in Self.states where state.jobRunning {
            #expect(!ActionPolicy.browser(state).enabled.contains(.export))
        }
        let selected = BrowserState(page: .grid, album: .folder, actsOn: .several, hasPhotos: true, editing: true)
        #expect(ActionPolicy.browser(selected).enabled.contains(.export))
    }

    @Test func editModeWithNothingSelectedActsOnNothingButTheFocusedPhoto() {
        let state = BrowserState(page: .grid, album: .folder, actsOn: .none, hasPhotos: true, editing: true)
        let enabled = ActionPolicy.browser(state).enabled
        #expect(enabled.isDisjoint(with: [.trash, .export, .addToAlbum, .deletePermanently]))
        #expect(enabled.isSuperset(of: [.rename, .print, .markUp, .leaveEdit, .selectAll, .selectNone]))
    }

    @Test func theBoardOffersNothingButOnTheBoard() {
        for state in BoardState.all {
            let offer = ActionPolicy.board(state)
            if state.page == .board {
                #expect(offer.shown == Set(BoardButton.allCases))
                #expect(offer.enabled.contains(.save))
                #expect(offer.enabled.contains(.undo) == state.canUndo)
                #expect(offer.enabled.contains(.redo) == state.canRedo)
            } else {
                #expect(offer.enabled.isEmpty && offer.shown.isEmpty)
            }
        }
    }
}
