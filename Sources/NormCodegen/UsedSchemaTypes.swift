import GraphQL
import NormProject

/// The enums, input objects and custom scalars that operations and fragments use, found by
/// walking their selections and variables: the schema types codegen writes (Apollo iOS
/// writes those its operations reference, too).
struct UsedSchemaTypes {
    let schema: SchemaTypes
    private(set) var names: Set<String> = []

    init(schema: SchemaTypes) { self.schema = schema }

    mutating func add(_ operation: OperationDefinition) {
        for definition in operation.variableDefinitions { addInput(schema.shape(of: definition.type).named) }
        add(operation.selectionSet, on: schema.rootType(of: ProjectDefinition.Kind(rawValue: operation.operation.rawValue) ?? .query))
    }

    mutating func add(_ fragment: FragmentDefinition) {
        add(fragment.selectionSet, on: fragment.typeCondition.name.value)
    }

    private mutating func add(_ selections: GraphQL.SelectionSet, on typeName: String) {
        for selection in selections.selections {
            switch selection {
            case let field as Field:
                guard let type = schema.fieldType(field.name.value, of: typeName) else { continue }
                let named = TypeShape(type).named
                if let child = field.selectionSet { add(child, on: named.name) } else { addLeaf(named) }
            case let inline as InlineFragment:
                add(inline.selectionSet, on: inline.typeCondition?.name.value ?? typeName)
            default: break  // a spread's fragment is added on its own
            }
        }
    }

    private mutating func addLeaf(_ type: GraphQLNamedType) {
        if type is GraphQLEnumType || (type is GraphQLScalarType && !SchemaTypes.builtInScalars.contains(type.name)) {
            names.insert(type.name)
        }
    }

    private mutating func addInput(_ type: GraphQLNamedType) {
        guard let input = type as? GraphQLInputObjectType else { return addLeaf(type) }
        guard names.insert(input.name).inserted else { return }
        for field in ((try? input.fields()) ?? [:]).values { addInput(TypeShape(field.type).named) }
    }
}
