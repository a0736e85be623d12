/**
 * Export of a compacted context (X4): the messages an API would be sent (OpenAI Chat Completions,
 * Anthropic Messages) and Markdown for people.
 */
export { exportOpenAI, toOpenAIMessages, type OpenAIExport, type OpenAIExportOptions, type OpenAIMessage, type OpenAITextPart, type OpenAIToolCall } from './openai.ts';
export { toAnthropicMessages, type AnthropicBlock, type AnthropicExport, type AnthropicMessage, type AnthropicTextBlock } from './anthropic.ts';
export { toMarkdown } from './markdown.ts';
export { formatBytes, imagePlaceholder } from './common.ts';
