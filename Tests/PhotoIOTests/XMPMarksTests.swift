import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// Marks read from and merged into XMP as other apps write it.
@Suite struct XMPMarksTests {
    let exiftoolSidecar = """
    <?xpacket begin='\u{FEFF}' id='W5M0MpCehiHzreSzNTczkc9d'?>
    <x:xmpmeta xmlns:x='adobe:ns:meta/' x:xmptk='Image::ExifTool 12.57'>
    <rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
     <rdf:Description rdf:about=''
      xmlns:dc='http://purl.org/dc/elements/1.1/'>
      <dc:subject>
       <rdf:Bag>
        <rdf:li>beach</rdf:li>
        <rdf:li>Kyoto</rdf:li>
       </rdf:Bag>
      </dc:subject>
     </rdf:Description>
     <rdf:Description rdf:about=''
      xmlns:xmp='http://ns.adobe.com/xap/1.0/'>
      <xmp:Rating>5</xmp:Rating>
     </rdf:Description>
     <rdf:Description rdf:about='' xmlns:darktable='http://darktable.sf.net/' darktable:xmp_version='5'>
      <darktable:history><rdf:Seq><rdf:li darktable:operation='exposure'/></rdf:Seq></darktable:history>
     </rdf:Description>
    </rdf:RDF>
    </x:xmpmeta>
    <?xpacket end='w'?>
    """

    @Test func readsExiftoolsElementsAndAttributes() throws {
        let marks = try #require(XMPMarks.read(Array(exiftoolSidecar.utf8)))
        #expect(marks == PhotoMarks(favourite: false, rating: 5, tags: ["beach", "Kyoto"]))
        let attributes = "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmlns:digiKam='http://www.digikam.org/ns/1.0/' xmp:Rating='-1' digiKam:PickLabel='3'/></rdf:RDF></x:xmpmeta>"
        #expect(XMPMarks.read(Array(attributes.utf8)) == PhotoMarks(favourite: true, rating: 0))
    }

    @Test func placeNamesAreReadAndCarriedIntoAFreshSidecar() throws {
        // As `exiftool -XMP:City=Kyoto -XMP:Country=Japan -XMP:Location=Gion` writes them.
        let exiftool = """
        <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
         <rdf:Description rdf:about='' xmlns:Iptc4xmpCore='http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/'>
          <Iptc4xmpCore:Location>Gion</Iptc4xmpCore:Location>
         </rdf:Description>
         <rdf:Description rdf:about='' xmlns:photoshop='http://ns.adobe.com/photoshop/1.0/'>
          <photoshop:City>Kyoto</photoshop:City>
          <photoshop:Country>Japan</photoshop:Country>
         </rdf:Description>
        </rdf:RDF></x:xmpmeta>
        """
        let marks = try #require(XMPMarks.read(Array(exiftool.utf8)))
        #expect(marks.places == PlaceNames(location: "Gion", city: "Kyoto", country: "Japan"))
        #expect(marks.isEmpty)
        let attributes = "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description xmlns:photoshop='http://ns.adobe.com/photoshop/1.0/' photoshop:City='Zürich' photoshop:State='ZH'/></rdf:RDF></x:xmpmeta>"
        #expect(XMPMarks.read(Array(attributes.utf8))?.places == PlaceNames(city: "Zürich", state: "ZH"))
        // A new sidecar for a rating keeps the places the photo's XMP named.
        var rated = marks
        rated.setRating(3)
        #expect(XMPMarks.read(Array(XMPSidecarText.fresh(rated).utf8)) == rated)
        // Merging a change into a sidecar leaves its places as they are.
        let merged = try #require(XMPMarks.merged(PhotoMarks(rating: 1), into: Array(exiftool.utf8)))
        #expect(XMPMarks.read(merged)?.places == marks.places)
    }

    @Test func ourOwnFreshSidecarReadsBack() {
        let marks = PhotoMarks(favourite: true, rating: 4, tags: ["a&b", "雪"])
        #expect(XMPMarks.read(Array(XMPSidecarText.fresh(marks).utf8)) == marks)
    }

    @Test func mergingReplacesTheMarksAndKeepsEverythingElse() throws {
        let marks = PhotoMarks(favourite: true, rating: 2, tags: ["sea"])
        let merged = try #require(XMPMarks.merged(marks, into: Array(exiftoolSidecar.utf8)))
        #expect(XMPMarks.read(merged) == marks)
        let text = String(decoding: merged, as: UTF8.self)
        #expect(text.contains("darktable:history") && text.contains("darktable:operation=\"exposure\""))
        #expect(text.contains("darktable:xmp_version=\"5\""))
        #expect(!text.contains("beach"))
        let unfavourite = try #require(XMPMarks.merged(PhotoMarks(rating: 0), into: merged))
        #expect(XMPMarks.read(unfavourite) == PhotoMarks.none)
    }

    @Test func whatIsNotXMLIsNeitherReadNorOverwritten() {
        #expect(XMPMarks.read(Array("not <xml".utf8)) == nil)
        #expect(XMPMarks.merged(PhotoMarks(rating: 1), into: Array("garbage".utf8)) == nil)
        #expect(XMPMarks.read([]) == nil)
    }

    /// A photo that is not a JPEG is read as a possible sidecar: only bytes that begin as XML
    /// go to the parser (libxml2 writes its complaints on stderr).
    @Test func onlyWhatBeginsAsXMLIsParsed() {
        #expect(!XMPMarks.startsAsXML([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(!XMPMarks.startsAsXML(Array("gtk-logo.ref.png".utf8)))
        #expect(!XMPMarks.startsAsXML([]))
        #expect(XMPMarks.startsAsXML([0xEF, 0xBB, 0xBF] + Array(" \n<?xpacket".utf8)))
        #expect(XMPMarks.startsAsXML(Array("<x:xmpmeta/>".utf8)))
        #expect(XMPMarks.parse([0x89, 0x50, 0x4E, 0x47]) == nil)
    }

    @Test func externalEntitiesAreNotLoaded() {
        let hostile = "<!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description xmlns:dc='http://purl.org/dc/elements/1.1/'><dc:subject><rdf:Bag><rdf:li>&e;</rdf:li></rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>"
        let tags = XMPMarks.read(Array(hostile.utf8))?.tags ?? []
        #expect(!tags.joined().contains("root:"))
    }
}
