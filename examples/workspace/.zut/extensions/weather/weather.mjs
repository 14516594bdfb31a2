#!/usr/bin/env node
// weather: a zut extension (protocol v2) offering LLM tools. The data is a fixed, deterministic table (no
// network), so the tools double as test fixtures. Node standard library only; stdout carries frames only.
//
// tools:  weather {city}               -> text + image/png bar chart, details {lastCity, lookups}
//         forecast {city, days?}       -> takes 300 ms per day; stops on tool_cancel (capability "tool_cancel")
//         enable_weather_alerts {}     -> activate_tools ["weather_alerts"]
//         weather_alerts {city}        -> deferred tool, active only after the loader ran
import { createInterface } from 'node:readline';
import { deflateSync } from 'node:zlib';

const NAME = 'weather';
const VERSION = '1.0.0';
const PROTOCOL_VERSION = 2;
const MS_PER_DAY = 300;
const DAY_NAMES = ['Day 1', 'Day 2', 'Day 3', 'Day 4', 'Day 5', 'Day 6', 'Day 7'];

/** The whole "weather service": deterministic current conditions per city. */
const CITIES = {
  berlin: { name: 'Berlin', temp: 16, sky: 'fog', wind: 12, humidity: 81, alerts: [] },
  paris: { name: 'Paris', temp: 19, sky: 'light rain', wind: 9, humidity: 74, alerts: [] },
  london: { name: 'London', temp: 14, sky: 'overcast', wind: 18, humidity: 86, alerts: ['Yellow wind warning until 18:00'] },
  tokyo: { name: 'Tokyo', temp: 27, sky: 'sunny', wind: 7, humidity: 62, alerts: ['Heat advisory: stay hydrated'] },
  'new york': { name: 'New York', temp: 22, sky: 'partly cloudy', wind: 14, humidity: 58, alerts: [] },
  sydney: { name: 'Sydney', temp: 24, sky: 'clear', wind: 20, humidity: 55, alerts: [] },
  reykjavik: { name: 'Reykjavik', temp: 4, sky: 'snow showers', wind: 31, humidity: 90, alerts: ['Gale warning for coastal areas'] },
  cairo: { name: 'Cairo', temp: 34, sky: 'clear', wind: 11, humidity: 21, alerts: [] },
};

const log = (msg) => process.stderr.write(`[weather] ${msg}\n`);
const emit = (frame) => process.stdout.write(JSON.stringify(frame) + '\n');

// ------------------------------------------------------------------ data

function findCity(raw) {
  if (typeof raw !== 'string' || raw.trim() === '') return { error: 'city is required (a non-empty string)' };
  const city = CITIES[raw.trim().toLowerCase()];
  if (!city) {
    const known = Object.values(CITIES).map((c) => c.name).join(', ');
    return { error: `unknown city "${raw.trim()}"; known cities: ${known}` };
  }
  return { city };
}

/** A stable small offset per (city, day) so forecasts look varied but never change between runs. */
function offset(city, day) {
  let h = 2166136261;
  for (const ch of `${city.name}#${day}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return (h % 9) - 4;
}

function dailyHighs(city, days) {
  return Array.from({ length: days }, (_, d) => city.temp + offset(city, d));
}

// ------------------------------------------------------------------ PNG (zlib + CRC32, no dependencies)

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Colour of a bar: blue when cold, red when hot. */
function barColour(t) {
  const x = Math.max(0, Math.min(1, (t + 5) / 45));
  return [Math.round(40 + 200 * x), 90, Math.round(230 - 190 * x)];
}

/** Renders a bar chart (one bar per value) as an RGB PNG and returns it base64-encoded. */
function barChartPng(values) {
  const barW = 14, gap = 6, pad = 8, height = 64;
  const width = pad * 2 + values.length * barW + (values.length - 1) * gap;
  const lo = Math.min(0, ...values) - 2, hi = Math.max(...values) + 2;
  const rows = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3); // filter byte 0 (None) + RGB pixels
    for (let x = 0; x < width; x++) {
      let rgb = [248, 248, 244];
      if (y === height - pad) rgb = [120, 120, 120]; // baseline
      const i = Math.floor((x - pad) / (barW + gap));
      const inBar = x >= pad && i < values.length && (x - pad) % (barW + gap) < barW;
      if (inBar) {
        const top = Math.round(pad + (height - 2 * pad) * (1 - (values[i] - lo) / (hi - lo)));
        if (y >= top && y < height - pad) rgb = barColour(values[i]);
      }
      row.set(rgb, 1 + x * 3);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, no filter, no interlace
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return png.toString('base64');
}

// ------------------------------------------------------------------ tools

let lastCity = null;
let lookups = 0;
/** In-flight forecast calls by tool_call id; cancel() stops one. */
const inflight = new Map();

const errorResult = (id, text) => emit({ type: 'tool_result', id, content: [{ type: 'text', text }], is_error: true });

function toolWeather(id, args) {
  const { city, error } = findCity(args.city);
  if (error) return errorResult(id, error);
  lastCity = city.name;
  lookups++;
  const highs = dailyHighs(city, 7);
  const text =
    `${city.name}: ${city.temp}°C, ${city.sky}, wind ${city.wind} km/h, humidity ${city.humidity}%\n` +
    `next 7 days (highs): ${highs.map((t, d) => `${DAY_NAMES[d]} ${t}°C`).join(', ')}`;
  emit({
    type: 'tool_result',
    id,
    content: [{ type: 'text', text }, { type: 'image', mime_type: 'image/png', data: barChartPng(highs) }],
    details: { lastCity, lookups },
  });
}

function toolForecast(id, args) {
  const { city, error } = findCity(args.city);
  if (error) return errorResult(id, error);
  const days = args.days === undefined ? 3 : args.days;
  if (!Number.isInteger(days) || days < 1 || days > 7) return errorResult(id, 'days must be an integer from 1 to 7');
  const highs = dailyHighs(city, days);
  const lines = [];
  // Register the cancellation state before any work starts: tool_cancel may arrive at any moment.
  const job = { timer: null, cancelled: false };
  inflight.set(id, job);
  const step = () => {
    if (job.cancelled) return;
    const d = lines.length;
    lines.push(`${DAY_NAMES[d]}: high ${highs[d]}°C, low ${highs[d] - 7}°C`);
    if (lines.length < days) {
      job.timer = setTimeout(step, MS_PER_DAY);
      return;
    }
    inflight.delete(id);
    lastCity = city.name;
    emit({
      type: 'tool_result',
      id,
      content: [{ type: 'text', text: `${days}-day forecast for ${city.name}:\n${lines.join('\n')}` }],
      details: { lastCity, lookups },
    });
  };
  job.timer = setTimeout(step, MS_PER_DAY);
  job.progress = () => `${lines.length}/${days}`;
}

function cancel(id) {
  const job = inflight.get(id);
  if (!job) return; // unknown or already finished: ignore, as the spec asks
  job.cancelled = true;
  clearTimeout(job.timer);
  inflight.delete(id);
  log(`forecast ${id} cancelled after ${job.progress()} days`);
}

function toolAlerts(id, args) {
  const { city, error } = findCity(args.city);
  if (error) return errorResult(id, error);
  const text = city.alerts.length ? `${city.name} alerts:\n${city.alerts.join('\n')}` : `${city.name}: no active weather alerts`;
  emit({ type: 'tool_result', id, content: [{ type: 'text', text }] });
}

function toolEnableAlerts(id) {
  emit({
    type: 'tool_result',
    id,
    content: [{ type: 'text', text: 'Enabled the weather_alerts tool.' }],
    activate_tools: ['weather_alerts'],
  });
}

const CITY_SCHEMA = { type: 'string', description: 'City name, e.g. Berlin' };
const TOOLS = [
  {
    name: 'weather',
    description: 'Get the current weather for a city, with a 7-day temperature chart.',
    schema: { type: 'object', properties: { city: CITY_SCHEMA }, required: ['city'] },
    annotations: { title: 'Current weather', readOnlyHint: true, openWorldHint: false },
    run: toolWeather,
  },
  {
    name: 'forecast',
    description: 'Get a daily forecast for a city (slow: about 300 ms per day).',
    schema: {
      type: 'object',
      properties: { city: CITY_SCHEMA, days: { type: 'integer', minimum: 1, maximum: 7, description: 'days (default 3)' } },
      required: ['city'],
    },
    annotations: { title: 'Daily forecast', readOnlyHint: true, openWorldHint: false },
    run: toolForecast,
  },
  {
    name: 'enable_weather_alerts',
    description: 'Load the weather_alerts tool (call this before checking weather alerts).',
    schema: { type: 'object', properties: {} },
    // Not read-only (it changes which tools are offered): VS Code's agent mode asks before running it.
    annotations: { title: 'Enable weather alerts', idempotentHint: true },
    run: toolEnableAlerts,
  },
  {
    name: 'weather_alerts',
    description: 'List active weather alerts for a city.',
    schema: { type: 'object', properties: { city: CITY_SCHEMA }, required: ['city'] },
    deferred: true,
    annotations: { title: 'Weather alerts', readOnlyHint: true, openWorldHint: false },
    run: toolAlerts,
  },
];

// ------------------------------------------------------------------ protocol loop

let acked = false;

function onFrame(msg) {
  switch (msg.type) {
    case 'hello_ack':
      if (msg.protocol_version !== PROTOCOL_VERSION) {
        log(`unsupported protocol version ${msg.protocol_version}; exiting`);
        process.exit(1);
      }
      acked = true;
      for (const t of TOOLS) {
        // `annotations` (hints for MCP clients such as VS Code's agent mode) is an additive field zut ignores.
        const { name, description, schema, annotations } = t;
        emit({ type: 'register_tool', name, description, schema, annotations, ...(t.deferred ? { deferred: true } : {}) });
      }
      emit({ type: 'ready' });
      return;
    case 'tool_call': {
      if (!acked) return;
      const tool = TOOLS.find((t) => t.name === msg.name);
      const args = msg.args && typeof msg.args === 'object' && !Array.isArray(msg.args) ? msg.args : {};
      if (!tool) return errorResult(msg.id, `weather: unknown tool "${msg.name}"`);
      try {
        tool.run(msg.id, args);
      } catch (err) {
        errorResult(msg.id, `weather: ${err.message}`);
      }
      return;
    }
    case 'tool_cancel':
      cancel(msg.id);
      return;
    case 'shutdown':
      for (const id of [...inflight.keys()]) cancel(id);
      process.stdout.write(JSON.stringify({ type: 'shutdown_ack' }) + '\n', () => process.exit(0));
      return;
    default:
      log(`ignoring frame type ${JSON.stringify(msg.type)}`);
  }
}

process.stdout.on('error', () => process.exit(0)); // host went away
emit({ type: 'hello', protocol_version: PROTOCOL_VERSION, name: NAME, version: VERSION, capabilities: ['tools', 'tool_cancel'] });
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (err) {
    log(`ignoring invalid frame: ${err.message}`);
    return;
  }
  if (msg && typeof msg === 'object') onFrame(msg);
});
rl.on('close', () => process.exit(0)); // stdin EOF: the host is gone
