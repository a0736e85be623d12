/**
 * The GitHub Copilot CLI event types that carry nothing the model saw: turn boundaries, tool
 * starts (the call is on its `assistant.message`), hooks, permissions, streaming deltas, usage
 * checkpoints, shutdown totals, UI and MCP state. The importer counts them as metadata lines; a type
 * in neither this list nor the importer's own is reported. From the session event schema of
 * github/copilot-sdk (`nodejs/src/generated/session-events.ts`, August 2026).
 */
export const COPILOT_METADATA_EVENTS: ReadonlySet<string> = new Set([
  'assistant.idle', 'assistant.intent', 'assistant.message_delta', 'assistant.message_start',
  'assistant.reasoning_delta', 'assistant.server_tool_progress', 'assistant.streaming_delta', 'assistant.tool_call_delta',
  'assistant.turn_end', 'assistant.turn_start', 'auto_mode_switch.completed', 'auto_mode_switch.requested',
  'capabilities.changed', 'command.completed', 'command.execute', 'command.queued',
  'commands.changed', 'elicitation.completed', 'elicitation.requested', 'exit_plan_mode.completed',
  'exit_plan_mode.requested', 'external_tool.completed', 'external_tool.requested', 'factory.run_settled',
  'factory.run_started', 'factory.run_updated', 'hook.end', 'hook.progress',
  'hook.start', 'mcp.headers_refresh_completed', 'mcp.headers_refresh_required', 'mcp.oauth_completed',
  'mcp.oauth_required', 'mcp.prompts.list_changed', 'mcp.resources.list_changed', 'mcp.tools.list_changed',
  'mcp_app.tool_call_complete', 'model.call_failure', 'pending_messages.modified', 'permission.completed',
  'permission.requested', 'sampling.completed', 'sampling.requested', 'session.auto_mode_resolved',
  'session.autopilot_objective_changed', 'session.background_tasks_changed', 'session.binary_asset', 'session.canvas.closed',
  'session.canvas.opened', 'session.canvas.recorded', 'session.canvas.registry_changed', 'session.canvas.removed',
  'session.canvas.unavailable', 'session.compaction_start', 'session.context_changed', 'session.context_cleared',
  'session.custom_agents_updated', 'session.custom_notification', 'session.extensions.attachments_pushed', 'session.extensions_loaded',
  'session.handoff', 'session.idle', 'session.managed_settings_enforced', 'session.managed_settings_resolved',
  'session.mcp_server_status_changed', 'session.mcp_servers_loaded', 'session.mode_changed', 'session.permissions_changed',
  'session.plan_changed', 'session.remote_steerable_changed', 'session.schedule_cancelled', 'session.schedule_created',
  'session.schedule_rearmed', 'session.session_limits_changed', 'session.shutdown', 'session.skills_loaded',
  'session.snapshot_rewind', 'session.task_complete', 'session.todos_changed', 'session.tools_updated',
  'session.usage_checkpoint', 'session.usage_info', 'session.workspace_file_changed', 'session_limits_exhausted.completed',
  'session_limits_exhausted.requested', 'skill.invoked', 'subagent.completed', 'subagent.deselected',
  'subagent.failed', 'subagent.selected', 'system.notification', 'tool.execution_partial_result',
  'tool.execution_progress', 'tool.execution_start', 'tool.user_requested', 'tool_search.activated',
  'ui.ephemeral_query', 'user_input.completed', 'user_input.requested',
]);
