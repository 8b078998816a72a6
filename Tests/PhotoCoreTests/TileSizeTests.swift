import PhotoCore
import Testing

@Suite struct TileSizeTests {
    @Test func stepsFromSmallToLargeAndStops() {
        var size = TileSize(edge: TileSize.smallest)
        var seen = [size.edge]
        while !size.isLargest {
            size = size.larger
            seen.append(size.edge)
        }
        #expect(seen == TileSize.steps)
        #expect(seen.first == 96 && seen.last == 384)
        #expect(size.larger == size)
        #expect(TileSize(edge: 96).smaller.edge == 96)
        #expect(TileSize.standard.stepped(by: 2).edge == 256)
        #expect(TileSize.standard.stepped(by: -1).edge == 128)
        #expect(TileSize.standard.stepped(by: 0) == .standard)
    }

    @Test func sizesOutsideTheRangeAreBroughtIntoIt() {
        #expect(TileSize(edge: 10).edge == 96)
        #expect(TileSize(edge: 5000).edge == 384)
    }

    @Test func aSizeBetweenStepsStaysAndStepsToItsNeighbours() {
        let size = TileSize(edge: 200)
        #expect(size.edge == 200)
        #expect(size.larger.edge == 256)
        #expect(size.smaller.edge == 192)
        #expect(size.nearestStep == TileSize.steps.firstIndex(of: 192))
    }

    @Test func eachStepIsItsOwnNearestStep() {
        for (index, edge) in TileSize.steps.enumerated() {
            #expect(TileSize(edge: edge).nearestStep == index)
            #expect(TileSize(step: index).edge == edge)
        }
        #expect(TileSize(step: -3).edge == 96)
        #expect(TileSize(step: 99).edge == 384)
    }

    @Test func thumbnailsComeFromTheCacheSizeThatFits() {
        #expect(TileSize(edge: 96).thumbnailSize(scale: 1) == .normal)
        #expect(TileSize(edge: 128).thumbnailSize(scale: 1) == .normal)
        #expect(TileSize(edge: 160).thumbnailSize(scale: 1) == .large)
        #expect(TileSize(edge: 256).thumbnailSize(scale: 1) == .large)
        #expect(TileSize(edge: 320).thumbnailSize(scale: 1) == .xLarge)
        #expect(TileSize(edge: 384).thumbnailSize(scale: 1) == .xLarge)
        // A display of two device pixels a pixel needs twice the pixels.
        #expect(TileSize(edge: 128).thumbnailSize(scale: 2) == .large)
        #expect(TileSize(edge: 384).thumbnailSize(scale: 2) == .xxLarge)
        #expect(TileSize(edge: 160).thumbnailSize(scale: 0) == .large)
    }
}
