import Joi from 'joi';
import { ValidationError } from '../../../../engine/errors.js';
import type { Leaderboard, LeaderboardSettings } from '../../../../engine/leaderboards/leaderboard-store.js';
import type { ResetSchedule } from '../../../../engine/seasons/schedule.js';
import { windowOf } from '../../../../engine/competitions/window.js';
import { html, type Html } from '../../../html.js';
import { csrfField } from '../../../middleware/dashboard-session.js';
import { LEAGUE_EXAMPLE, leagueGroups, settingsOf, type SettingsFields } from '../../leaderboard-settings.js';
import { name, type ObjectValue, oneOf, optional, rewardBands, updateStrategy } from '../../schemas.js';
import { bandsView } from '../../../../engine/competitions/rewards.js';
import { postForm, type Screen } from '../view.js';
import { boardPath } from './common.js';

const MAX_TIEBREAKERS = 4;

/** Reset schedules a person picks from; "custom" takes a cron expression. */
const PRESETS = { daily: '0 0 * * *', weekly: '0 0 * * 1', monthly: '0 0 1 * *' } as const;
type Preset = keyof typeof PRESETS;
const SCHEDULE_LABELS: Record<Preset | 'none' | 'custom', string> = {
  none: 'Never (no scheduled reset)',
  daily: 'Daily, at midnight',
  weekly: 'Weekly, Mondays at midnight',
  monthly: 'Monthly, on the 1st at midnight',
  custom: 'Custom cron expression',
};

/**
 * The settings form's fields: the API's rules (the engine checks bounds and schedules the same way),
 * read from a form, where an empty field means "not given" and a checkbox left unticked is absent.
 */
const bound = optional(Joi.number().empty('').messages({ 'number.base': 'must be a finite number or empty' }));
/** A window's instant from a datetime-local input, read as UTC (the form says so). */
const windowField = optional(
  Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/)
    .empty('')
    .messages({ 'string.pattern.base': 'must be a date and time (UTC)' }),
);
/** A window's instant as the form's input shows it: UTC, to the second. */
const windowValue = (at: Date | null | undefined) => at?.toISOString().slice(0, 19) ?? '';
export const settingsFields = {
  name: optional(name.empty('')),
  type: optional(oneOf('individual', 'clan')),
  sort_order: optional(oneOf('desc', 'asc')),
  update_strategy: optional(updateStrategy),
  client_reports: optional(Joi.boolean().truthy('on').empty('')),
  listed: optional(Joi.boolean().truthy('on').empty('')),
  join_required: optional(Joi.boolean().truthy('on').empty('')),
  max_players: optional(Joi.number().integer().min(1).max(1_000_000).empty('')),
  max_attempts: optional(Joi.number().integer().min(1).max(10_000).empty('')),
  notify_top: optional(Joi.number().integer().min(0).max(1000).empty('')),
  review_above: bound,
  review_max_gain_per_second: optional(Joi.number().min(0).empty('')),
  review_outlier_factor: optional(Joi.number().positive().empty('')),
  min_score: bound,
  max_score: bound,
  schedule: optional(oneOf('none', 'daily', 'weekly', 'monthly', 'custom')),
  cron: optional(Joi.string().trim().max(200).empty('')),
  timezone: optional(Joi.string().trim().max(64).empty('')),
  keep_seasons: optional(Joi.number().integer().min(1).max(1000).empty('')),
  open_seconds: optional(Joi.number().integer().min(60).max(31_622_400).empty('')),
  rewards: optional(Joi.string().trim().max(65_536).empty('')),
  rewards_by: optional(oneOf('rank', 'group_rank')),
  groups: optional(Joi.string().trim().max(4096).empty('').example(JSON.stringify(LEAGUE_EXAMPLE))),
  tie_break: optional(oneOf('shared', 'earliest')),
  opens_at: windowField,
  closes_at: windowField,
  ...tiebreakerFields(),
  ...csrfField,
};

/** The form's tiebreaker rows: a name (empty: the row is unused) and an order for each of the 4 columns. */
function tiebreakerFields() {
  const fields: Record<string, Joi.Schema> = {};
  for (let column = 1; column <= MAX_TIEBREAKERS; column++) {
    fields[`tiebreaker_${column}_name`] = optional(
      Joi.string()
        .trim()
        .pattern(/^[a-z0-9_]{1,32}$/)
        .empty('')
        .messages({ 'string.pattern.base': 'must be 1-32 characters of a-z, 0-9 and _' }),
    );
    fields[`tiebreaker_${column}_order`] = optional(oneOf('desc', 'asc'));
  }
  return fields as Record<`tiebreaker_${1 | 2 | 3 | 4}_${'name' | 'order'}`, Joi.Schema<string | undefined>>;
}
type SettingsForm = ObjectValue<typeof settingsFields>;

function scheduleOf(form: SettingsForm): ResetSchedule | null {
  const choice = form.schedule ?? 'none';
  if (choice === 'none') return null;
  const timezone = form.timezone ?? 'UTC';
  if (choice === 'custom') {
    if (form.cron === undefined) {
      throw new ValidationError('cron: a custom schedule needs a cron expression.', [
        { field: 'cron', message: 'is required for a custom schedule' },
      ]);
    }
    return { cron: form.cron, timezone };
  }
  return { cron: PRESETS[choice], timezone };
}

/** The whole form, as the settings the engine takes: every field of it is shown, so an empty bound is no bound. */
export function formSettings(form: SettingsForm): Partial<LeaderboardSettings> {
  const fields: SettingsFields = {
    name: form.name,
    type: form.type,
    sort_order: form.sort_order,
    update_strategy: form.update_strategy,
    client_reports: form.client_reports ?? false,
    listed: form.listed ?? false,
    join_required: form.join_required ?? false,
    max_players: form.max_players ?? null,
    max_attempts: form.max_attempts ?? null,
    min_score: form.min_score ?? null,
    max_score: form.max_score ?? null,
    reset_schedule: scheduleOf(form),
    keep_seasons: form.keep_seasons,
    tie_break: form.tie_break,
    tiebreakers: tiebreakersOf(form),
    opens_at: form.opens_at === undefined ? null : `${form.opens_at}Z`,
    closes_at: form.closes_at === undefined ? null : `${form.closes_at}Z`,
    open_seconds: form.open_seconds ?? null,
    rewards: rewardsOf(form.rewards),
    groups: groupsOf(form.groups),
    rewards_by: form.rewards_by ?? 'rank',
    notify_top: form.notify_top ?? 0,
    review: reviewOf(form),
  };
  return settingsOf(fields);
}

/** The review rules the form gives; all three empty: none (null). */
function reviewOf(form: SettingsForm): SettingsFields['review'] {
  const { review_above: above, review_max_gain_per_second: gain, review_outlier_factor: factor } = form;
  if (above === undefined && gain === undefined && factor === undefined) return null;
  return { above: above ?? null, max_gain_per_second: gain ?? null, outlier_factor: factor ?? null };
}

/**
 * A JSON field of the form (rewards, groups) as the API takes it, checked as the API checks it;
 * `empty` when the field is empty.
 */
function jsonField<T>(text: string | undefined, field: string, schema: Joi.Schema, shape: string, empty: T): T {
  if (text === undefined) return empty;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ValidationError(`${field}: not JSON.`, [{ field, message: `must be ${shape}` }]);
  }
  const { value, error } = schema.validate(parsed, { convert: false });
  if (error) throw new ValidationError(`${field}: ${error.message}.`, [{ field, message: error.message }]);
  return value as T;
}

const rewardsOf = (text: string | undefined) =>
  jsonField<NonNullable<SettingsFields['rewards']>>(text, 'rewards', rewardBands, 'a JSON array of bands', []);
const groupsOf = (text: string | undefined) => jsonField<SettingsFields['groups']>(text, 'groups', leagueGroups, 'a JSON object', null);

/** The tiebreaker rows with a name, in the form's order. */
function tiebreakersOf(form: SettingsForm): { name: string; sort_order: 'desc' | 'asc' }[] {
  const columns: { name: string; sort_order: 'desc' | 'asc' }[] = [];
  for (const column of [1, 2, 3, 4] as const) {
    const name = form[`tiebreaker_${column}_name`] as string | undefined;
    if (name !== undefined) columns.push({ name, sort_order: form[`tiebreaker_${column}_order`] === 'asc' ? 'asc' : 'desc' });
  }
  return columns;
}

const presetOf = (schedule: ResetSchedule) => (Object.keys(PRESETS) as Preset[]).find((key) => PRESETS[key] === schedule.cron);

export function describeSchedule(schedule: ResetSchedule | null): string {
  if (!schedule) return 'Never';
  const preset = presetOf(schedule);
  return `${preset ? preset[0]!.toUpperCase() + preset.slice(1) : schedule.cron} (${schedule.timezone})`;
}

function option(value: string, label: string, selected: boolean): Html {
  return html`<option value="${value}" ${selected ? html`selected` : html``}>${label}</option>`;
}

/** The settings form, empty for "Create leaderboard" or filled with a board's settings. */
export function settingsFormHtml(screen: Screen, board: Leaderboard | null): Html {
  const p = board ? 'edit' : 'new';
  const schedule = board?.resetSchedule ?? null;
  const preset = schedule ? (presetOf(schedule) ?? 'custom') : 'none';
  const window = board && windowOf(board, board.season, board.seasonStartedAt);
  const fields = html` ${
      board
        ? html``
        : html`<label for="${p}-id">Id</label>
            <input id="${p}-id" name="id" required maxlength="64" pattern="[A-Za-z0-9_.\\-]{1,64}" aria-describedby="${p}-id-hint" />
            <p class="hint" id="${p}-id-hint">1-64 characters of A-Z, a-z, 0-9, _ . - (used in the API's URLs)</p>`
    }
    <label for="${p}-name">Name</label>
    <input id="${p}-name" name="name" maxlength="100" value="${board?.name ?? ''}" ${board ? html`required` : html``} />
    <label for="${p}-type">Type</label>
    <select id="${p}-type" name="type">
      ${option('individual', 'Individual', board?.type !== 'clan')}
      ${option('clan', 'Clan (members’ scores add up)', board?.type === 'clan')}
    </select>
    <label for="${p}-order">Order</label>
    <select id="${p}-order" name="sort_order">
      ${option('desc', 'Highest score first', board?.sortOrder !== 'asc')}
      ${option('asc', 'Lowest score first', board?.sortOrder === 'asc')}
    </select>
    <label for="${p}-strategy">Strategy</label>
    <select id="${p}-strategy" name="update_strategy">
      ${option('best', 'Best: keep the best score', (board?.updateStrategy ?? 'best') === 'best')}
      ${option('latest', 'Latest: each report replaces the score', board?.updateStrategy === 'latest')}
      ${option('sum', 'Sum: each report adds to the score', board?.updateStrategy === 'sum')}
    </select>
    <fieldset>
      <legend>Ties</legend>
      <div class="stack-fields">
        <label for="${p}-tie">Equal scores</label>
        <select id="${p}-tie" name="tie_break">
          ${option('shared', 'Share a rank (1, 2, 2, 4)', board?.tieBreak !== 'earliest')}
          ${option('earliest', 'The earlier score ranks higher (1, 2, 3, 4)', board?.tieBreak === 'earliest')}
        </select>
        <p class="hint">Tiebreakers: up to 4 more numbers a report carries, compared in turn when scores are equal (empty name: unused).</p>
        ${[1, 2, 3, 4].map((column) => {
          const current = board?.tiebreakers[column - 1];
          return html`<div class="lb-pair">
            <div>
              <label for="${p}-tb${column}-name">Tiebreaker ${column} name</label>
              <input id="${p}-tb${column}-name" name="tiebreaker_${column}_name" maxlength="32" value="${current?.name ?? ''}" />
            </div>
            <div>
              <label for="${p}-tb${column}-order">Tiebreaker ${column} direction</label>
              <select id="${p}-tb${column}-order" name="tiebreaker_${column}_order">
                ${option('desc', 'Higher is better', current?.sortOrder !== 'asc')}
                ${option('asc', 'Lower is better', current?.sortOrder === 'asc')}
              </select>
            </div>
          </div>`;
        })}
      </div>
    </fieldset>
    ${board ? html`<p class="hint">Type, order, strategy and ties cannot change once the leaderboard has scores.</p>` : html``}
    <fieldset>
      <legend>Score bounds (empty: none)</legend>
      <div class="lb-pair">
        <div>
          <label for="${p}-min">Minimum score</label>
          <input id="${p}-min" name="min_score" type="number" step="any" value="${board?.minScore ?? ''}" />
        </div>
        <div>
          <label for="${p}-max">Maximum score</label>
          <input id="${p}-max" name="max_score" type="number" step="any" value="${board?.maxScore ?? ''}" />
        </div>
      </div>
    </fieldset>
    <div class="lb-check">
      <input id="${p}-client" name="client_reports" type="checkbox" value="on" ${(board?.clientReports ?? true) ? html`checked` : html``} />
      <label for="${p}-client">Client reports: game clients may report scores</label>
    </div>
    <div class="lb-check">
      <input id="${p}-listed" name="listed" type="checkbox" value="on" ${board?.listed ? html`checked` : html``} />
      <label for="${p}-listed">Listed: players find it in the game's competitions list</label>
    </div>
    <fieldset>
      <legend>Entries (each season)</legend>
      <div class="lb-check">
        <input id="${p}-join" name="join_required" type="checkbox" value="on" ${board?.joinRequired ? html`checked` : html``} />
        <label for="${p}-join">Entry required: players enter before reporting</label>
      </div>
      <div class="lb-pair">
        <div>
          <label for="${p}-max-players">Most players (empty: no limit)</label>
          <input id="${p}-max-players" name="max_players" type="number" min="1" max="1000000" step="1" value="${board?.maxPlayers ?? ''}" />
        </div>
        <div>
          <label for="${p}-max-attempts">Attempts per player (empty: no limit)</label>
          <input
            id="${p}-max-attempts"
            name="max_attempts"
            type="number"
            min="1"
            max="10000"
            step="1"
            value="${board?.maxAttempts ?? ''}"
          />
        </div>
      </div>
    </fieldset>
    <div>
      <label for="${p}-notify-top">Overtaken events within the first ranks (0: none)</label>
      <input id="${p}-notify-top" name="notify_top" type="number" min="0" max="1000" step="1" value="${board?.notifyTop ?? 0}" />
    </div>
    <fieldset>
      <legend>Review (empty: none)</legend>
      <p class="hint" id="${p}-review-hint">A client report that breaks one of these rules is held for review instead of ranked.</p>
      <div class="lb-pair">
        <div>
          <label for="${p}-review-above">Hold client scores above</label>
          <input
            id="${p}-review-above"
            name="review_above"
            type="number"
            step="any"
            value="${board?.review?.above ?? ''}"
            aria-describedby="${p}-review-hint"
          />
        </div>
        <div>
          <label for="${p}-review-gain">Hold gains per second above</label>
          <input
            id="${p}-review-gain"
            name="review_max_gain_per_second"
            type="number"
            min="0"
            step="any"
            value="${board?.review?.maxGainPerSecond ?? ''}"
            aria-describedby="${p}-review-hint"
          />
        </div>
        <div>
          <label for="${p}-review-factor">Hold scores beyond the leader by a factor of</label>
          <input
            id="${p}-review-factor"
            name="review_outlier_factor"
            type="number"
            min="0"
            step="any"
            value="${board?.review?.outlierFactor ?? ''}"
            aria-describedby="${p}-review-hint"
          />
        </div>
      </div>
    </fieldset>
    <fieldset>
      <legend>Tournament window (UTC; empty: none)</legend>
      <p class="hint" id="${p}-window-hint">
        The current season accepts reports only between these instants; after the close it is final until the next reset, which clears the
        window. Not with a reset schedule.
      </p>
      <div class="lb-pair">
        <div>
          <label for="${p}-opens">Opens at (UTC)</label>
          <input
            id="${p}-opens"
            name="opens_at"
            type="datetime-local"
            step="1"
            value="${windowValue(window?.opensAt)}"
            aria-describedby="${p}-window-hint"
          />
        </div>
        <div>
          <label for="${p}-closes">Closes at (UTC)</label>
          <input
            id="${p}-closes"
            name="closes_at"
            type="datetime-local"
            step="1"
            value="${windowValue(window?.closesAt)}"
            aria-describedby="${p}-window-hint"
          />
        </div>
      </div>
    </fieldset>
    <fieldset>
      <legend>Reset schedule</legend>
      <div class="stack-fields">
        <label for="${p}-schedule">Reset schedule: a new season starts</label>
        <select id="${p}-schedule" name="schedule">
          ${(['none', 'daily', 'weekly', 'monthly', 'custom'] as const).map((key) => option(key, SCHEDULE_LABELS[key], key === preset))}
        </select>
        <label for="${p}-cron">Custom cron expression</label>
        <input
          id="${p}-cron"
          name="cron"
          maxlength="200"
          value="${preset === 'custom' ? schedule!.cron : ''}"
          placeholder="0 0 * * 1"
          aria-describedby="${p}-cron-hint"
        />
        <p class="hint" id="${p}-cron-hint">Used with "Custom": 5 fields, minute hour day-of-month month day-of-week.</p>
        <label for="${p}-tz">Time zone</label>
        <input id="${p}-tz" name="timezone" maxlength="64" value="${schedule?.timezone ?? 'UTC'}" aria-describedby="${p}-tz-hint" />
        <p class="hint" id="${p}-tz-hint">An IANA time zone such as Europe/Paris (daylight saving included).</p>
        <label for="${p}-open">Open for (seconds after each reset; empty: the whole season)</label>
        <input
          id="${p}-open"
          name="open_seconds"
          type="number"
          min="60"
          step="1"
          value="${board?.openSeconds ?? ''}"
          aria-describedby="${p}-open-hint"
        />
        <p class="hint" id="${p}-open-hint">
          With a schedule: each season accepts reports this long from its start, at most the shortest time between resets.
        </p>
        <label for="${p}-rewards">Rewards (JSON; empty: none)</label>
        <textarea id="${p}-rewards" name="rewards" rows="3" maxlength="65536" aria-describedby="${p}-rewards-hint">
${board && board.rewards.length > 0 ? JSON.stringify(bandsView(board.rewards)) : ''}</textarea>
        <p class="hint" id="${p}-rewards-hint">
          Up to 50 bands, e.g. [{"rank_from": 1, "rank_to": 3, "reward": {"coins": 500}}]: once a season has closed, each player claims the
          reward of their rank, once.
        </p>
        <label for="${p}-rewards-by">Rewards follow</label>
        <select id="${p}-rewards-by" name="rewards_by">
          ${option('rank', 'The rank on the leaderboard', board?.rewardsBy !== 'group_rank')}
          ${option('group_rank', 'The rank within the league group', board?.rewardsBy === 'group_rank')}
        </select>
        <label for="${p}-groups">League groups (JSON; empty: none)</label>
        <textarea id="${p}-groups" name="groups" rows="2" maxlength="4096" aria-describedby="${p}-groups-hint">
${board?.groups ? JSON.stringify(board.groups) : ''}</textarea>
        <p class="hint" id="${p}-groups-hint">
          E.g. {"size": 50, "tiers": ["bronze", "silver", "gold"], "promote": 5, "relegate": 5}: each season players play in groups of their
          tier. Set before the first score; afterwards only tiers may be added at the top.
        </p>
        <label for="${p}-keep">Archived seasons kept</label>
        <input id="${p}-keep" name="keep_seasons" type="number" min="1" max="1000" step="1" value="${board?.keepSeasons ?? 52}" />
      </div>
    </fieldset>
    <button type="submit" class="button primary">${board ? 'Save settings' : 'Create leaderboard'}</button>`;
  return postForm(screen, board ? boardPath(board.id) : '/leaderboards', fields, html`class="stack"`);
}
