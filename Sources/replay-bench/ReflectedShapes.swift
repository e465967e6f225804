import ActionLog
import Foundation
import StepChanges

extension ReplayBench {
  // What a recorder pays for the shapes TCA code holds without `Codable` (enums with values, a
  // model in a `Result`, optionals, identifiers, dates): the same values encoded by reflection
  // (`_ReflectedValue`, which every member of a type that is not `Codable` goes through) and by
  // their synthesized `Codable`, into the same bytes.

  struct ShapeModel: Codable {
    enum Kind: Codable { case rain(millimetres: Double), sunny, wind(speed: Int, gusts: Int?) }
    enum Favoriting: Codable { case buttonTapped, response(Bool), moved(row: Int, column: Int) }
    var id: UUID
    var title: String
    var kind: Kind
    var favoriting: Favoriting?
    var temperatures: [Double]
    var days: [Date]
    var tags: [String]
    var rank: Int?
  }

  static func shapeModels(count: Int) -> [ShapeModel] {
    let kinds: [ShapeModel.Kind] = [
      .rain(millimetres: 2.5), .sunny, .wind(speed: 30, gusts: nil), .wind(speed: 12, gusts: 40),
    ]
    let favoritings: [ShapeModel.Favoriting?] = [
      nil, .buttonTapped, .response(true), .moved(row: 1, column: 2),
    ]
    return (0..<count).map { index in
      let id = UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", index))!
      return ShapeModel(
        id: id, title: "Item \(index)", kind: kinds[index % kinds.count],
        favoriting: favoritings[index % favoritings.count],
        temperatures: [21.5, 19, Double(index % 30)],
        days: [Date(timeIntervalSince1970: Double(index) * 86_400)],
        tags: index.isMultiple(of: 5) ? [] : ["a", "b"],
        rank: index.isMultiple(of: 3) ? nil : index)
    }
  }

  static func reflectedShapes(values count: Int, rounds: Int) throws {
    print(
      "Reflected shapes: TCA's shapes encoded by reflection vs by synthesized Codable"
        + " (\(count) values, median of \(rounds) alternating rounds)")
    let models = self.shapeModels(count: count)
    let codec = CompactJSONCodec()
    // The same bytes either way: what the comparison rests on.
    for model in models.prefix(12) {
      let reflected = try codec.encode(_ReflectedValue(model, reflectsCodable: true))
      let synthesized = try codec.encode(model)
      guard reflected == synthesized else {
        print("reflection writes other bytes:")
        print("  \(String(decoding: reflected, as: UTF8.self))")
        print("  \(String(decoding: synthesized, as: UTF8.self))")
        throw CocoaError(.coderInvalidValue)
      }
    }
    var synthesized: [Duration] = []
    var reflected: [Duration] = []
    for round in 0..<rounds {
      for byReflection in round.isMultiple(of: 2) ? [false, true] : [true, false] {
        let start = ContinuousClock.now
        var bytes = 0
        for model in models {
          bytes +=
            byReflection
            ? try codec.encode(_ReflectedValue(model, reflectsCodable: true)).count
            : try codec.encode(model).count
        }
        precondition(bytes > 0)
        let elapsed = ContinuousClock.now - start
        if byReflection { reflected.append(elapsed) } else { synthesized.append(elapsed) }
      }
    }
    let ratios = zip(reflected, synthesized).map { $0 / $1 }
    self.row("synthesized Codable", median(synthesized), per: count)
    self.row("reflection", median(reflected), per: count)
    self.ratio(
      median(ratios), goal: "≤ 2× synthesized Codable", met: median(ratios) <= 2,
      note: rangeOfRounds(ratios))
    print()
  }
}
