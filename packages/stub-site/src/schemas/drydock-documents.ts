// JSON schemas (draft-04) for the `data` of the drydock/* documents whose schemas Drydock ships, so that
// validatedesign refuses what a real Drydock refuses. Built from small pieces; the rules they state are Drydock's
// (python/drydock_provisioner/schemas/*.yaml): which fields a kind takes, of which type, and where nothing else may go.

type JsonSchema = Record<string, unknown>

const str: JsonSchema = { type: 'string' }
const bool: JsonSchema = { type: 'boolean' }
const num: JsonSchema = { type: 'number' }
const strList: JsonSchema = { type: 'array', items: str }
const strMap: JsonSchema = { type: 'object', additionalProperties: str }

/** An object of these properties; `closed`: no other property allowed. */
const obj = (properties: Record<string, JsonSchema>, closed = false): JsonSchema =>
  closed ? { type: 'object', properties, additionalProperties: false } : { type: 'object', properties }

/** An object whose every value has `value`'s shape (a map keyed by name). */
const mapOf = (value: JsonSchema): JsonSchema => ({ type: 'object', additionalProperties: value })

const filesystem = (closed: boolean): JsonSchema =>
  obj({ mountpoint: str, fstype: str, mount_options: str, fs_uuid: str, fs_label: str }, closed)

const storage = obj({
  physical_devices: mapOf(obj({
    labels: strMap,
    volume_group: str,
    partitions: {
      type: 'array',
      items: obj({
        name: str, size: str, part_uuid: str, volume_group: str, labels: strMap, bootable: bool, filesystem: filesystem(true)
      }, true)
    }
  })),
  volume_groups: mapOf(obj({
    vg_uuid: str,
    logical_volumes: { type: 'array', items: obj({ name: str, lv_uuid: str, size: str, filesystem: filesystem(false) }) }
  }))
})

/** The parts a host profile and a baremetal node share; a node is a host profile bound to one machine. */
function hostData (extra: { interface: Record<string, JsonSchema>, node: Record<string, JsonSchema> }): JsonSchema {
  return obj({
    oob: obj({ type: str, network: str, account: str, credential: str }),
    storage,
    platform: obj({ image: str, kernel: str, kernel_params: { type: 'object' } }, true),
    // node labels live in owner_data: Drydock has nowhere else for them
    metadata: obj({ tags: strList, owner_data: strMap, rack: str, boot_mac: str }, true),
    host_profile: str,
    hardware_profile: str,
    primary_network: str,
    interfaces: mapOf(obj({ device_link: str, slaves: strList, networks: strList, ...extra.interface })),
    ...extra.node
  }, true)
}

export const DRYDOCK_DOCUMENT_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  'drydock/HostProfile/v1': hostData({ interface: { sriov: obj({ vf_count: num, trustmode: bool }) }, node: {} }),
  'drydock/BaremetalNode/v1': hostData({
    interface: {},
    node: { addressing: { type: 'array', items: obj({ address: str, network: str }) } }
  })
}
