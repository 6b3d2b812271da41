// JSON schemas (draft-04) for the `data` of the drydock/* documents whose schemas Drydock ships (every kind it
// ingests but PromenadeConfig), so that
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

const oneOf = (...choices: JsonSchema[]): JsonSchema => ({ oneOf: choices })
const oneOfStrings = (...values: string[]): JsonSchema => ({ type: 'string', enum: values })
const anyObject: JsonSchema = { type: 'object' }

const region = obj({
  tag_definitions: { type: 'array', items: obj({ tag: str, definition_type: oneOfStrings('lshw_xpath'), definition: str }, true) },
  authorized_keys: strList,
  // Drydock's schema means to describe each repository but misspells the keyword, so only remove_unlisted is checked
  repositories: obj({ remove_unlisted: bool })
}, true)

const rack = obj({
  // formats (ipv4, uri) are not checked: Drydock validates without a format checker
  tor_switches: obj({ mgmt_ip: str, sdn_api_uri: str }),
  location: obj({ clli: str, grid: str }),
  local_networks: strList,
  labels: anyObject
}, true)

const network = obj({
  cidr: str,
  ranges: { type: 'array', items: obj({ type: str, start: str, end: str }, true) },
  dns: obj({ domain: str, servers: str }, true),
  dhcp_relay: obj({ self_ip: str, upstream_target: str }, true),
  mtu: num,
  vlan: str,
  routedomain: str,
  routes: { type: 'array', items: obj({ subnet: str, gateway: str, metric: num, routedomain: str }, true) },
  labels: anyObject
}, true)

const networkLink = obj({
  bonding: obj({ mode: str, hash: str, peer_rate: str, mon_rate: num, up_delay: num, down_delay: num }, true),
  mtu: num,
  linkspeed: str,
  trunking: obj({ mode: str, default_network: str }, true),
  allowed_networks: strList,
  labels: anyObject
}, true)

const hardwareProfile = obj({
  vendor: str,
  generation: str,
  hw_version: str,
  bios_version: str,
  boot_mode: oneOfStrings('bios', 'uefi'),
  bootstrap_protocol: oneOfStrings('pxe', 'usb', 'hdd'),
  pxe_interface: num,
  device_aliases: anyObject,
  cpu_sets: strMap,
  // Drydock's schema misspells the keyword for a hugepage's fields: each is only checked to be an object
  hugepages: mapOf(anyObject)
}, true)

const filterSet = obj({
  filter_set_type: oneOfStrings('intersection', 'union'),
  filter_set: {
    type: 'array',
    items: obj({
      filter_type: oneOfStrings('intersection', 'union'),
      node_names: strList,
      node_tags: strList,
      node_labels: anyObject,
      rack_names: strList,
      rack_labels: anyObject
    }, true)
  }
}, true)

const bootAction = obj({
  signaling: bool,
  assets: {
    type: 'array',
    items: {
      ...obj({
        path: { type: 'string', pattern: '^/.+' },
        location: str,
        type: oneOfStrings('unit', 'file', 'pkg_list'),
        data: oneOf(str, mapOf(oneOf(str, { type: 'null' }))),
        location_pipeline: { type: 'array', items: oneOfStrings('template') },
        data_pipeline: { type: 'array', items: oneOfStrings('base64_encode', 'template', 'base64_decode', 'utf8_encode', 'utf8_decode') },
        permissions: { type: 'string', pattern: '\\d{3}' }
      }, true),
      required: ['type']
    }
  },
  node_filter: filterSet
}, true)

export const DRYDOCK_DOCUMENT_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  'drydock/Region/v1': region,
  'drydock/Rack/v1': rack,
  'drydock/Network/v1': network,
  'drydock/NetworkLink/v1': networkLink,
  'drydock/HardwareProfile/v1': hardwareProfile,
  'drydock/BootAction/v1': bootAction,
  'drydock/HostProfile/v1': hostData({ interface: { sriov: obj({ vf_count: num, trustmode: bool }) }, node: {} }),
  'drydock/BaremetalNode/v1': hostData({
    interface: {},
    node: { addressing: { type: 'array', items: obj({ address: str, network: str }) } }
  })
}
