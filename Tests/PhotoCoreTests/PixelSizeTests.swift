import Testing
@testable import PhotoCore

@Suite struct PixelSizeTests {
    private func size(_ w: Int, _ h: Int) -> PixelSize { PixelSize(width: w, height: h) }

    @Test func shrinksToFitPreservingAspect() {
        #expect(size(400, 200).fitting(in: size(100, 100)) == size(100, 50))
        #expect(size(200, 400).fitting(in: size(100, 100)) == size(50, 100))
        #expect(size(4000, 3000).fitting(in: size(256, 256)) == size(256, 192))
        #expect(size(1000, 500).fitting(in: size(300, 100)) == size(200, 100))
    }

    @Test func neverEnlarges() {
        #expect(size(50, 20).fitting(in: size(100, 100)) == size(50, 20))
        #expect(size(100, 100).fitting(in: size(100, 100)) == size(100, 100))
    }

    @Test func extremeAspectKeepsAtLeastOnePixel() {
        #expect(size(10_000, 1).fitting(in: size(100, 100)) == size(100, 1))
        #expect(size(1, 10_000).fitting(in: size(100, 100)) == size(1, 100))
    }

    @Test(arguments: [(0, 10), (10, 0), (-5, 10), (0, 0)])
    func degenerateSizesAreReturnedUnchanged(_ w: Int, _ h: Int) {
        #expect(size(w, h).fitting(in: size(100, 100)) == size(w, h))
    }

    @Test func degenerateBoxLeavesTheSizeUnchanged() {
        #expect(size(400, 200).fitting(in: size(0, 0)) == size(400, 200))
        #expect(size(400, 200).fitting(in: size(100, -1)) == size(400, 200))
    }

    @Test func resultAlwaysFitsTheBox() {
        var rng = SeededGenerator(seed: 99)
        for _ in 0..<1000 {
            let source = size(Int.random(in: 1...20_000, using: &rng), Int.random(in: 1...20_000, using: &rng))
            let box = size(Int.random(in: 1...2_000, using: &rng), Int.random(in: 1...2_000, using: &rng))
            let fit = source.fitting(in: box)
            #expect(fit.width <= max(box.width, 1) && fit.height <= max(box.height, 1), "\(source) in \(box) gave \(fit)")
            #expect(fit.width <= source.width && fit.height <= source.height)
            #expect(fit.width >= 1 && fit.height >= 1)
        }
    }
}
